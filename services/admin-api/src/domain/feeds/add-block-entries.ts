// Adds entries to the tenant's block list (docs/feeds.md "Block list"): every value is validated first (one bad
// value: 400 naming it, nothing added); values already listed are kept as they are. Answers the whole list.
import { ApiError } from '@risk/common/errors';
import { ID_PREFIXES, newId } from '@risk/db';
import type { PrismaDeps } from '../deps';
import { listBlockEntries } from './list-block-entries';
import { normalizeBlockEntry } from './normalize-block-entry';

/** The most entries a tenant's block list holds (the feed holds FEED_MAX_ENTRIES lines). */
export const BLOCK_LIST_MAX_ENTRIES = 5000;

export async function addBlockEntries(
  deps: PrismaDeps,
  input: { tenantId: string; entries: Array<{ value: string; note?: string }> },
) {
  const normalized = input.entries.map((e, i) => ({
    ...normalizeBlockEntry(e.value, `entries[${i}].value`),
    note: e.note ?? null,
  }));
  await deps.prisma.$transaction(async (tx) => {
    await tx.feedBlockEntry.createMany({
      data: normalized.map((e) => ({ id: newId(ID_PREFIXES.feedBlockEntry), tenant_id: input.tenantId, ...e })),
      skipDuplicates: true,
    });
    const count = await tx.feedBlockEntry.count({ where: { tenant_id: input.tenantId } });
    if (count > BLOCK_LIST_MAX_ENTRIES) {
      throw new ApiError('parameter_invalid', {
        param: 'entries',
        message: `A block list holds at most ${BLOCK_LIST_MAX_ENTRIES} entries; this would make ${count}.`,
      });
    }
  });
  return listBlockEntries(deps, { tenantId: input.tenantId });
}
