// A console session as the API shows it (contracts ZConsoleSession): never a secret but the CSRF token.
import type { ConsoleSessionBody } from '@risk/contracts';
import { CONSOLE_IDLE_MS, CONSOLE_KEY_SCOPES, csrfTokenFor } from './session-secrets';

export interface ConsoleSessionRow {
  id: string;
  kind: string;
  created: Date;
  last_seen_at: Date;
  expires_at: Date;
  tenant: { id: string; name: string; org_id: string } | null;
}

export function serializeConsoleSession(
  row: ConsoleSessionRow,
  csrf: { secret: string; secretsKey: string },
): ConsoleSessionBody {
  const idle = Math.min(row.last_seen_at.getTime() + CONSOLE_IDLE_MS, row.expires_at.getTime());
  return {
    object: 'console_session',
    id: row.id,
    kind: row.kind === 'admin' ? 'admin' : 'tenant',
    tenant: row.tenant,
    csrf_token: csrfTokenFor(csrf.secret, csrf.secretsKey),
    scopes: row.kind === 'admin' ? [] : [...CONSOLE_KEY_SCOPES],
    created: row.created.toISOString(),
    expires_at: row.expires_at.toISOString(),
    idle_expires_at: new Date(idle).toISOString(),
  };
}
