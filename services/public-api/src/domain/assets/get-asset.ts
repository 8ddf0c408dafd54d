import { ApiError } from '@risk/common';
import type { Asset } from '@risk/contracts';
import type { AppDeps } from '../../deps';
import { loadAssetExpansions, type AssetExpand } from './expand';
import { assetReader } from './asset-reader';
import { renderAsset, type AssetRow } from './render';

/**
 * Hot path (every asset route): one raw primary-key read, batched with concurrent ones (asset-reader.ts).
 * Only the asset of the key's mode: a test-mode asset is 404 to a live key and the reverse.
 */
export async function findAssetOr404(
  deps: Pick<AppDeps, 'pool'>,
  livemode: boolean,
  fingerprint: string,
): Promise<AssetRow> {
  const row = await assetReader(deps).read(livemode, fingerprint);
  if (!row)
    throw new ApiError('resource_missing', { param: 'fingerprint', message: `No such asset: '${fingerprint}'.` });
  return row;
}

/** Findings, AI-BOM and threats are served for enriched assets, and for stale ones (the last good result). */
export function assertEnriched(asset: AssetRow): void {
  if (asset.enrichment_status !== 'enriched' && asset.enrichment_status !== 'stale') {
    throw new ApiError('asset_not_enriched', {
      param: 'fingerprint',
      message: `Asset '${asset.fingerprint}' is ${asset.enrichment_status}; findings, AI-BOM and threats are available once it is enriched.`,
    });
  }
}

export async function getAsset(
  deps: Pick<AppDeps, 'prisma' | 'pool'>,
  input: { livemode: boolean; fingerprint: string; expand: Set<AssetExpand> },
): Promise<Asset> {
  const row = await findAssetOr404(deps, input.livemode, input.fingerprint);
  const expansions = await loadAssetExpansions(deps, input.livemode, [row], input.expand);
  return renderAsset(row, expansions.get(row.fingerprint));
}
