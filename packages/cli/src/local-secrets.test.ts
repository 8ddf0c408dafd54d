import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeKey } from '@risk/common/crypto';
import { ensureLocalSecrets, loadLocalSecrets } from './local-secrets';

describe('local secrets for `pnpm start` outside production', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'risk-secrets-'));
    file = path.join(dir, '.risk-local.json');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('generates both secrets once into a private file and reuses them on the next start', () => {
    const first = ensureLocalSecrets({}, file);
    expect(first.created).toBe(true);
    expect(first.secrets.ADMIN_API_TOKEN).toMatch(/^adm_[A-Za-z0-9_-]{32}$/);
    expect(decodeKey(first.secrets.SECRETS_KEY)).toHaveLength(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const second = ensureLocalSecrets({}, file);
    expect(second).toEqual({ secrets: first.secrets, created: false });
  });

  it('prefers values from the environment and never writes them to the file', () => {
    const env = { ADMIN_API_TOKEN: 'given-admin-token-of-24-chars+', SECRETS_KEY: 'a'.repeat(64) };
    expect(ensureLocalSecrets(env, file)).toEqual({ secrets: env, created: false });
    expect(fs.existsSync(file)).toBe(false);
    const partial = ensureLocalSecrets({ ADMIN_API_TOKEN: env.ADMIN_API_TOKEN }, file);
    expect(partial.secrets.ADMIN_API_TOKEN).toBe(env.ADMIN_API_TOKEN);
    const stored = loadLocalSecrets(file);
    expect(stored.ADMIN_API_TOKEN).toBeUndefined();
    expect(stored.SECRETS_KEY).toBe(partial.secrets.SECRETS_KEY);
  });
});
