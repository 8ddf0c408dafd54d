import { ApiError } from '@risk/common/errors';
import { readTenantTokenCheck } from '@risk/db';
import type { TenantTokenClaims } from '../../auth';
import type { PrismaDeps } from '../deps';

/** last_used_at is written at most once a minute per token: informational, and not a write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The per-request check behind a valid signature: one primary-key look-up joined to the tenant. A token
 * without an id (signed before tokens had ids), an unknown id (its tenant was deleted) or a revoked one is
 * 401 token_revoked; a suspended tenant is 403 tenant_suspended.
 */
export async function checkTenantToken(deps: PrismaDeps, input: { claims: TenantTokenClaims; now?: Date }) {
  const { prisma } = deps;
  const { claims, now = new Date() } = input;
  if (!claims.tokenId) {
    throw new ApiError('token_revoked', {
      message: 'This tenant token predates token ids and is no longer accepted; mint a new one.',
    });
  }
  const row = await readTenantTokenCheck(prisma, claims.tokenId);
  if (!row || row.tenant_id !== claims.tenantId) {
    throw new ApiError('token_revoked', { message: 'This tenant token no longer exists (its tenant was deleted).' });
  }
  if (row.revoked_at) throw new ApiError('token_revoked', { message: 'This tenant token has been revoked.' });
  if (row.tenant_status !== 'active') throw tenantSuspended();
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
    await prisma.tenantToken.update({ where: { id: claims.tokenId }, data: { last_used_at: now } });
  }
}

export const tenantSuspended = (param?: string) =>
  new ApiError('tenant_suspended', {
    param,
    message:
      'This tenant is suspended: its tenant tokens, deployment tokens and API keys are refused until an admin reactivates it.',
  });
