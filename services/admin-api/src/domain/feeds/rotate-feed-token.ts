// Rotation (docs/feeds.md "Feed tokens"): a new secret for the same token id; the previous secret keeps working
// for the grace period the caller chose (ROTATION_GRACE_MS by default) so the firewalls holding it can be updated
// one by one, or not at all (0) when it leaked (docs/security.md "Feed secret rotation").
import { ApiError } from '@risk/common/errors';
import { mintFeedSecret } from '@risk/firewalls';
import type { PrismaDeps } from '../deps';
import { findFeedToken } from './find-feed-token';
import { serializeFeedToken } from './serialize-feeds';

export const ROTATION_GRACE_MS = 24 * 3600_000;

export async function rotateFeedToken(
  deps: PrismaDeps,
  input: { tenantId: string; id: string; graceMs?: number; now?: Date },
) {
  const token = await findFeedToken(deps, input);
  if (token.revoked_at)
    throw new ApiError('token_revoked', {
      param: 'id',
      message: 'A revoked feed token cannot be rotated; create a new one.',
    });
  if (token.firewall_id) {
    throw new ApiError('parameter_invalid', {
      param: 'id',
      message:
        'This token was minted by the sync for a firewall: revoke it and the next push of the policy mints a new one.',
    });
  }
  const minted = mintFeedSecret();
  const now = input.now ?? new Date();
  const graceMs = input.graceMs ?? ROTATION_GRACE_MS;
  // no grace: the previous secret is not kept at all, so it fails like any unknown secret from this instant
  const row = await deps.prisma.feedToken.update({
    where: { id: token.id },
    data: {
      token_hash: minted.hash,
      token_prefix: minted.prefix,
      previous_token_hash: graceMs > 0 ? token.token_hash : null,
      previous_expires_at: graceMs > 0 ? new Date(now.getTime() + graceMs) : null,
    },
  });
  return { ...serializeFeedToken(row), token: minted.secret };
}
