// The per-request check of a console session (docs/console.md "Sign-in and access"): one look-up by the secret's
// hash, joined to the tenant and to the tenant token typed in at sign-in. A session ends when signed out, 30 min
// idle, 8 h after sign-in, when that tenant token is revoked or expires, or when the tenant is suspended or
// deleted; an admin session also ends once ADMIN_API_TOKEN is no longer the token it was opened with
// (docs/security.md "Console sessions and the admin token"). An ended session's own credentials are revoked at once.
import { constantTimeEqual, decryptSecret } from '@risk/common/crypto';
import { ApiError } from '@risk/common/errors';
import { readConsoleSessionBySecretHash, type ConsoleSessionCheckRow } from '@risk/db';
import type { AdminDeps } from '../deps';
import { tenantSuspended } from '../tenant-tokens/check-tenant-token';
import { endConsoleSession } from './sign-out';
import { adminTokenBinding, CONSOLE_IDLE_MS, CONSOLE_TOUCH_MS, sessionSecretHash } from './session-secrets';
import type { ConsoleSessionRow } from './serialize-session';

type ResolvedRow = ConsoleSessionCheckRow;

export interface ResolvedConsoleSession extends ConsoleSessionRow {
  /** the session's own tenant token (tenant sessions) */
  tenantToken: () => string;
  /** the session's own API key (tenant sessions) */
  apiKey: () => string;
}

type ResolveDeps = Pick<AdminDeps, 'prisma' | 'config'>;

export async function resolveConsoleSession(
  deps: ResolveDeps,
  input: { secret: string; now?: Date },
): Promise<ResolvedConsoleSession> {
  const now = input.now ?? new Date();
  const row = await readConsoleSessionBySecretHash(deps.prisma, sessionSecretHash(input.secret));
  if (!row) throw new ApiError('session_missing', { message: 'Not signed in to the console (no such session).' });
  if (row.revoked_at) throw new ApiError('session_revoked', { message: 'This console session was signed out.' });
  const ended = endReason(row, now, deps.config);
  if (ended) {
    await endConsoleSession(deps, { sessionId: row.id, now });
    if (ended === 'suspended') throw tenantSuspended();
    if (ended === 'admin_token_changed')
      throw new ApiError('session_revoked', {
        message: 'The admin token this session was opened with is no longer the configured one; sign in again.',
      });
    if (ended === 'expired')
      throw new ApiError('session_expired', { message: 'This console session has expired; sign in again.' });
    throw new ApiError('session_revoked', {
      message: 'The tenant token this session was opened with has been revoked; sign in again.',
    });
  }
  let lastSeen = row.last_seen_at;
  if (now.getTime() - lastSeen.getTime() >= CONSOLE_TOUCH_MS) {
    lastSeen = now;
    await deps.prisma.consoleSession.update({ where: { id: row.id }, data: { last_seen_at: now } });
  }
  const secretsKey = deps.config.SECRETS_KEY ?? '';
  const decrypt = (ciphertext: string | null) => () => {
    if (!ciphertext) throw new ApiError('tenant_session_required', { message: 'This needs a tenant session.' });
    return decryptSecret(ciphertext, secretsKey);
  };
  return {
    id: row.id,
    kind: row.kind,
    created: row.created,
    last_seen_at: lastSeen,
    expires_at: row.expires_at,
    tenant: row.tenant_id ? { id: row.tenant_id, name: row.tenant_name ?? '', org_id: row.org_id ?? '' } : null,
    tenantToken: decrypt(row.tenant_token_ciphertext),
    apiKey: decrypt(row.api_key_ciphertext),
  };
}

function endReason(
  row: ResolvedRow,
  now: Date,
  config: ResolveDeps['config'],
): 'expired' | 'revoked' | 'suspended' | 'admin_token_changed' | null {
  const t = now.getTime();
  if (t >= row.expires_at.getTime() || t >= row.last_seen_at.getTime() + CONSOLE_IDLE_MS) return 'expired';
  if (row.kind === 'admin') return adminTokenStillConfigured(row, config) ? null : 'admin_token_changed';
  if (row.kind !== 'tenant') return 'revoked';
  // the tenant was deleted (the row cascades away, but a concurrent request may still hold it)
  if (!row.tenant_id || row.tenant_status === null) return 'revoked';
  if (row.signin_revoked_at || !row.signin_expires_at || t >= row.signin_expires_at.getTime()) return 'revoked';
  if (row.tenant_status !== 'active') return 'suspended';
  return null;
}

/** The admin session's stored HMAC is the one of today's ADMIN_API_TOKEN (none stored, or no token: ended). */
function adminTokenStillConfigured(row: ResolvedRow, config: ResolveDeps['config']): boolean {
  const token = config.ADMIN_API_TOKEN;
  if (!row.admin_token_hmac || !token) return false;
  return constantTimeEqual(row.admin_token_hmac, adminTokenBinding(token, config.SECRETS_KEY ?? ''));
}
