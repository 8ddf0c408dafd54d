import { keysetOrder, keysetWhere, listEnvelope, paginate, type ListEnvelope } from '@risk/common';
import type { Asset } from '@risk/contracts';
import type { Prisma } from '@risk/db';
import type { AppDeps } from '../../deps';
import { loadAssetExpansions, type AssetExpand } from './expand';
import { ASSET_SELECT, renderAsset } from './render';

export interface ListAssetsInput {
  /** the key's mode: a key lists only the assets of its own mode */
  livemode: boolean;
  limit: number;
  starting_after?: string;
  ending_before?: string;
  asset_type?: string;
  enrichment_status?: string;
  intrinsic_risk_severity?: string;
  expand: Set<AssetExpand>;
}

/**
 * Newest first (created DESC, fingerprint DESC) within the key's mode; the cursor is a fingerprint,
 * resolved within the mode but without the filters.
 */
export async function listAssets(deps: Pick<AppDeps, 'prisma'>, input: ListAssetsInput): Promise<ListEnvelope<Asset>> {
  const filters: Prisma.AssetWhereInput = {
    livemode: input.livemode,
    ...(input.asset_type ? { asset_type: input.asset_type } : {}),
    ...(input.enrichment_status ? { enrichment_status: input.enrichment_status } : {}),
    ...(input.intrinsic_risk_severity ? { intrinsic_risk_severity: input.intrinsic_risk_severity } : {}),
  };
  const page = await paginate(input, {
    loadCursor: async (fingerprint) => {
      const row = await deps.prisma.asset.findUnique({
        where: { livemode_fingerprint: { livemode: input.livemode, fingerprint } },
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
  const expansions = await loadAssetExpansions(deps, input.livemode, page.data, input.expand);
  return listEnvelope(
    '/v1/assets',
    { data: page.data.map((a) => renderAsset(a, expansions.get(a.fingerprint))), has_more: page.has_more },
    (a) => a.fingerprint,
  );
}
