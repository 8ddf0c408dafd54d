import { listEnvelope, paginate, type ListEnvelope } from '@risk/common/http';
import type { AiBomVersion } from '@risk/contracts';
import { listAiBomVersionRows } from '@risk/db';
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
  // the component count is jsonb_array_length in the page query: no AI-BOM document or component list is
  // loaded into Node (docs/history.md "Routes")
  const page = await paginate(input, {
    loadCursor: (id) => deps.prisma.aiBom.findFirst({ where: { id, ...ofAsset }, select: { created: true, id: true } }),
    fetch: ({ take, ...bound }) => listAiBomVersionRows(deps.prisma, { ...ofAsset, page: bound, take }),
  });
  const data = page.data.map((b) => renderAiBomVersion(b, asset.current_aibom_id));
  return listEnvelope(
    `/v1/assets/${encodeURIComponent(asset.fingerprint)}/aibom/versions`,
    { data, has_more: page.has_more },
    (v) => v.id,
  );
}
