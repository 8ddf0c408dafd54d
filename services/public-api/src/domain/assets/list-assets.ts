import { keysetOrder, keysetWhere, listEnvelope, paginate, type ListEnvelope } from '@risk/common';
import type { Asset } from '@risk/contracts';
import type { Prisma } from '@risk/db';
import type { AppDeps } from '../../deps';
import { loadAssetExpansions, type AssetExpand } from './expand';
import { ASSET_SELECT, renderAsset } from './render';

export interface ListAssetsInput {
  limit: number;
  starting_after?: string;
  ending_before?: string;
  asset_type?: string;
  enrichment_status?: string;
  intrinsic_risk_severity?: string;
  expand: Set<AssetExpand>;
}

/** Newest first (created DESC, fingerprint DESC); the cursor is a fingerprint, resolved without the filters. */
export async function listAssets(deps: Pick<AppDeps, 'prisma'>, input: ListAssetsInput): Promise<ListEnvelope<Asset>> {
  const filters: Prisma.AssetWhereInput = {
    ...(input.asset_type ? { asset_type: input.asset_type } : {}),
    ...(input.enrichment_status ? { enrichment_status: input.enrichment_status } : {}),
    ...(input.intrinsic_risk_severity ? { intrinsic_risk_severity: input.intrinsic_risk_severity } : {}),
  };
  const page = await paginate(input, {
    loadCursor: async (fingerprint) => {
      const row = await deps.prisma.asset.findUnique({
        where: { fingerprint },
        select: { created: true, fingerprint: true },
      });
      return row ? { created: row.created, id: row.fingerprint } : null;
    },
    fetch: ({ before, after, order, take }) =>
      deps.prisma.asset.findMany({
        where: { AND: [filters, (keysetWhere('fingerprint', { before, after }) ?? {}) as Prisma.AssetWhereInput] },
        orderBy: keysetOrder('fingerprint', order) as Prisma.AssetOrderByWithRelationInput[],
        take,
        select: ASSET_SELECT,
      }),
  });
  const expansions = await loadAssetExpansions(deps, page.data, input.expand);
  return listEnvelope(
    '/v1/assets',
    { data: page.data.map((a) => renderAsset(a, expansions.get(a.fingerprint))), has_more: page.has_more },
    (a) => a.fingerprint,
  );
}
