// The tenant's block list, in value order (the order the feed writes it in).
import type { PrismaDeps } from '../deps';
import { serializeBlockEntry } from './serialize-feeds';

export async function listBlockEntries(deps: PrismaDeps, input: { tenantId: string }) {
  const rows = await deps.prisma.feedBlockEntry.findMany({
    where: { tenant_id: input.tenantId },
    orderBy: { value: 'asc' },
  });
  return {
    object: 'list' as const,
    data: rows.map(serializeBlockEntry),
    has_more: false,
    url: '/feeds/v1/block-list',
    next_cursor: null,
  };
}
