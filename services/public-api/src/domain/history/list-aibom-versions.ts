import { keysetOrder, keysetWhere, listEnvelope, paginate, type ListEnvelope } from '@risk/common';
import type { AiBomVersion } from '@risk/contracts';
import type { Prisma } from '@risk/db';
import type { AppDeps } from '../../deps';
import { findAssetOr404 } from '../assets/get-asset';
import { renderAiBomVersion } from './render';

export interface ListAiBomVersionsInput {
  livemode: boolean;
  fingerprint: string;
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

/** The AI-BOM versions of an asset, newest first, without their documents. */
export async function listAiBomVersions(
  deps: Pick<AppDeps, 'prisma' | 'pool'>,
  input: ListAiBomVersionsInput,
): Promise<ListEnvelope<AiBomVersion>> {
  const asset = await findAssetOr404(deps, input.livemode, input.fingerprint);
  const ofAsset = { livemode: input.livemode, fingerprint: asset.fingerprint };
  const page = await paginate(input, {
    loadCursor: (id) => deps.prisma.aiBom.findFirst({ where: { id, ...ofAsset }, select: { created: true, id: true } }),
    fetch: ({ before, after, order, take }) =>
      deps.prisma.aiBom.findMany({
        where: { AND: [ofAsset, (keysetWhere('id', { before, after }) ?? {}) as Prisma.AiBomWhereInput] },
        orderBy: keysetOrder('id', order) as Prisma.AiBomOrderByWithRelationInput[],
        select: { id: true, fingerprint: true, bom_version: true, content_hash: true, components: true, created: true },
        take,
      }),
  });
  const data = page.data.map((b) =>
    renderAiBomVersion(
      { ...b, component_count: Array.isArray(b.components) ? b.components.length : 0 },
      asset.current_aibom_id,
    ),
  );
  return listEnvelope(
    `/v1/assets/${encodeURIComponent(asset.fingerprint)}/aibom/versions`,
    { data, has_more: page.has_more },
    (v) => v.id,
  );
}
