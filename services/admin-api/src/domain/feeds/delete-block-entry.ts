// Removes one block-list entry; another tenant's entry is 404 like a missing one.
import { ApiError } from '@risk/common/errors';
import type { PrismaDeps } from '../deps';

export async function deleteBlockEntry(deps: PrismaDeps, input: { tenantId: string; id: string }) {
  const { count } = await deps.prisma.feedBlockEntry.deleteMany({ where: { id: input.id, tenant_id: input.tenantId } });
  if (!count) throw new ApiError('resource_missing', { param: 'id', message: `No block-list entry ${input.id}.` });
  return { id: input.id, object: 'feed_block_entry', deleted: true as const };
}
