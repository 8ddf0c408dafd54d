// The feed credential check (docs/feeds.md "Feed tokens"): HTTP Basic (user name = token id, password =
// secret), what PAN-OS EDLs and FortiGate external feeds send, or `Authorization: Bearer <secret>`. One look-up
// by the secret's SHA-256 (the current secret, or the previous one within its grace period after a rotation),
// joined to the tenant. A feed token reads feeds and nothing else: no other route accepts it.
import { sha256Hex } from '@risk/common/crypto';
import { ApiError } from '@risk/common/errors';
import { readFeedTokenBySecretHash } from '@risk/db';
import { tenantSuspended } from '../tenant-tokens/check-tenant-token';
import type { PrismaDeps } from '../deps';

const LAST_USED_RESOLUTION_MS = 60_000;

/** `Basic base64(id:secret)` or `Bearer secret` → the claimed id (Basic only) and the secret. */
export function feedCredentialOf(header: string | undefined): { id: string | null; secret: string } | null {
  if (!header) return null;
  const space = header.indexOf(' ');
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (space < 0 || !value || value.includes(' ')) return null;
  if (scheme === 'bearer') return { id: null, secret: value };
  if (scheme !== 'basic') return null;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

export async function checkFeedToken(
  deps: PrismaDeps,
  input: { header: string | undefined; now?: Date },
): Promise<string> {
  const { prisma } = deps;
  const now = input.now ?? new Date();
  const credential = feedCredentialOf(input.header);
  if (!credential) {
    throw new ApiError('token_missing', {
      message:
        'Send the feed token as HTTP Basic (user name = token id, password = secret) or Authorization: Bearer <secret>.',
    });
  }
  const hash = sha256Hex(credential.secret);
  const row = await readFeedTokenBySecretHash(prisma, hash);
  // a Basic user name that is not the secret's token is as wrong as a wrong secret
  if (!row || (credential.id !== null && credential.id !== row.id))
    throw new ApiError('token_invalid', { message: 'Invalid feed token.' });
  if (row.revoked_at) throw new ApiError('token_revoked', { message: 'This feed token has been revoked.' });
  if (row.previous && (!row.previous_expires_at || row.previous_expires_at <= now))
    throw new ApiError('token_revoked', { message: 'This feed token secret was rotated; use the new secret.' });
  if (row.tenant_status !== 'active') throw tenantSuspended();
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS)
    await prisma.feedToken.update({ where: { id: row.id }, data: { last_used_at: now } });
  return row.tenant_id;
}
