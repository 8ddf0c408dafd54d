import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Outside production, ADMIN_API_TOKEN and SECRETS_KEY may be absent: they are generated once and
 * kept in `.risk-local.json` at the repository root (git-ignored, mode 0600), so restarts reuse them.
 */
export const LOCAL_SECRETS_FILE = path.resolve(__dirname, '..', '..', '..', '.risk-local.json');

export interface LocalSecrets {
  ADMIN_API_TOKEN: string;
  SECRETS_KEY: string;
}

export function loadLocalSecrets(file = LOCAL_SECRETS_FILE): Partial<LocalSecrets> {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LocalSecrets>;
  } catch {
    return {};
  }
}

/** Returns the secrets to use and whether the file was (re)written. */
export function ensureLocalSecrets(env: NodeJS.ProcessEnv, file = LOCAL_SECRETS_FILE): { secrets: LocalSecrets; created: boolean } {
  const existing = loadLocalSecrets(file);
  const secrets: LocalSecrets = {
    ADMIN_API_TOKEN: env.ADMIN_API_TOKEN ?? existing.ADMIN_API_TOKEN ?? `adm_${randomBytes(24).toString('base64url')}`,
    SECRETS_KEY: env.SECRETS_KEY ?? existing.SECRETS_KEY ?? randomBytes(32).toString('hex'),
  };
  const created = !existing.ADMIN_API_TOKEN || !existing.SECRETS_KEY;
  if (created && (!env.ADMIN_API_TOKEN || !env.SECRETS_KEY)) {
    fs.writeFileSync(file, `${JSON.stringify({ ...existing, ...secrets }, null, 2)}\n`, { mode: 0o600 });
  }
  return { secrets, created };
}
