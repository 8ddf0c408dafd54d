// Rotation (docs/feeds.md "Feed tokens"): a new secret for the same token id; the previous secret keeps working
// for ROTATION_GRACE_MS so the firewalls holding it can be updated one by one.
import { ApiError } from '@risk/common';
import { mintFeedSecret } from '@risk/firewalls';
import type { PrismaDeps } from '../deps';
import { findFeedToken } from './find-feed-token';
import { serializeFeedToken } from './serialize-feeds';

export const ROTATION_GRACE_MS = 24 * 3600_000;

export async function rotateFeedToken(deps: PrismaDeps, input: { tenantId: string; id: string; now?: Date }) {
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
  const row = await deps.prisma.feedToken.update({
    where: { id: token.id },
    data: {
      token_hash: minted.hash,
      token_prefix: minted.prefix,
      previous_token_hash: token.token_hash,
      previous_expires_at: new Date(now.getTime() + ROTATION_GRACE_MS),
    },
  });
  return { ...serializeFeedToken(row), token: minted.secret };
}
