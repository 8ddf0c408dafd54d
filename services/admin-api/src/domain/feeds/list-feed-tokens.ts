// A tenant's feed tokens, newest first (never a secret).
import type { PrismaDeps } from '../deps';
import { serializeFeedToken } from './serialize-feeds';

export async function listFeedTokens(deps: PrismaDeps, input: { tenantId: string }) {
  const rows = await deps.prisma.feedToken.findMany({
    where: { tenant_id: input.tenantId },
    orderBy: [{ created: 'desc' }, { id: 'desc' }],
    take: 100,
  });
  return {
    object: 'list' as const,
    data: rows.map(serializeFeedToken),
    has_more: false,
    url: '/feeds/v1/tokens',
    next_cursor: null,
  };
}
