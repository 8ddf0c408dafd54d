// Revoking a feed token: the feeds answer 401 token_revoked to it from the next request on (idempotent).
import type { PrismaDeps } from '../deps';
import { findFeedToken } from './find-feed-token';
import { serializeFeedToken } from './serialize-feeds';

export async function revokeFeedToken(deps: PrismaDeps, input: { tenantId: string; id: string }) {
  const token = await findFeedToken(deps, input);
  if (token.revoked_at) return serializeFeedToken(token);
  const row = await deps.prisma.feedToken.update({ where: { id: token.id }, data: { revoked_at: new Date() } });
  return serializeFeedToken(row);
}
