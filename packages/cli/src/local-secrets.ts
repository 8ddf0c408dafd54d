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
export function ensureLocalSecrets(
  env: NodeJS.ProcessEnv,
  file = LOCAL_SECRETS_FILE,
): { secrets: LocalSecrets; created: boolean } {
  const existing = loadLocalSecrets(file);
  // only generated values are kept in the file; a value given in the environment is never copied there
  const stored: Partial<LocalSecrets> = { ...existing };
  if (!env.ADMIN_API_TOKEN && !stored.ADMIN_API_TOKEN)
    stored.ADMIN_API_TOKEN = `adm_${randomBytes(24).toString('base64url')}`;
  if (!env.SECRETS_KEY && !stored.SECRETS_KEY) stored.SECRETS_KEY = randomBytes(32).toString('hex');
  const created = stored.ADMIN_API_TOKEN !== existing.ADMIN_API_TOKEN || stored.SECRETS_KEY !== existing.SECRETS_KEY;
  if (created) fs.writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  const secrets: LocalSecrets = {
    ADMIN_API_TOKEN: env.ADMIN_API_TOKEN ?? stored.ADMIN_API_TOKEN!,
    SECRETS_KEY: env.SECRETS_KEY ?? stored.SECRETS_KEY!,
  };
  return { secrets, created };
}
