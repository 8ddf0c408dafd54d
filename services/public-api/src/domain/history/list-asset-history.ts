import { keysetOrder, keysetWhere, listEnvelope, paginate, type ListEnvelope } from '@risk/common/http';
import type { AssetHistoryEntry } from '@risk/contracts';
import type { Prisma } from '@risk/db';
import type { AppDeps } from '../../deps';
import { findAssetOr404 } from '../assets/get-asset';
import { renderHistoryEntry } from './render';

export interface ListAssetHistoryInput {
  livemode: boolean;
  fingerprint: string;
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

/**
 * The asset's history, newest first (docs/history.md). The asset of the key's mode only: the other
 * mode's asset is 404 and its entry ids are unknown cursors (docs/security.md "Modes and shared observations").
 */
export async function listAssetHistory(
  deps: Pick<AppDeps, 'prisma' | 'pool'>,
  input: ListAssetHistoryInput,
): Promise<ListEnvelope<AssetHistoryEntry>> {
  const asset = await findAssetOr404(deps, input.livemode, input.fingerprint);
  const ofAsset = { livemode: input.livemode, fingerprint: asset.fingerprint };
  const page = await paginate(input, {
    loadCursor: (id) =>
      deps.prisma.assetHistory.findFirst({ where: { id, ...ofAsset }, select: { created: true, id: true } }),
    fetch: ({ before, after, order, take }) =>
      deps.prisma.assetHistory.findMany({
        where: { AND: [ofAsset, (keysetWhere('id', { before, after }) ?? {}) as Prisma.AssetHistoryWhereInput] },
        orderBy: keysetOrder('id', order) as Prisma.AssetHistoryOrderByWithRelationInput[],
        take,
      }),
  });
  return listEnvelope(
    `/v1/assets/${encodeURIComponent(asset.fingerprint)}/history`,
    { data: page.data.map(renderHistoryEntry), has_more: page.has_more },
    (e) => e.id,
  );
}
