import { ApiError } from '@risk/common/errors';
import type { Asset } from '@risk/contracts';
import type { AppDeps } from '../../deps';
import { loadAssetExpansions, type AssetExpand } from './expand';
import { assetReader } from './asset-reader';
import { readPendingAssets } from './pending-assets';
import { effectiveOf, type OrgScope } from '../triage/org-view';
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
  if (!row) throw notFound(fingerprint);
  return row;
}

/**
 * findAssetOr404 for a route whose output shows the asset to the key's org (SARIF, VEX): the org's own name and
 * version of it, from the same batched read (docs/security.md "Display fields and feeds").
 */
export async function findOwnAssetOr404(
  deps: Pick<AppDeps, 'pool'>,
  scope: OrgScope,
  fingerprint: string,
): Promise<AssetRow> {
  const read = await assetReader(deps).readForOrg(scope, fingerprint);
  if (!read) throw notFound(fingerprint);
  return read.row;
}

const notFound = (fingerprint: string) =>
  new ApiError('resource_missing', { param: 'fingerprint', message: `No such asset: '${fingerprint}'.` });

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
  input: { scope: OrgScope; fingerprint: string; expand: Set<AssetExpand> },
): Promise<Asset> {
  // the asset and the org's view of it in one batched read (asset-reader.ts): no query of its own for the score
  const read = await assetReader(deps).readForOrg(input.scope, input.fingerprint);
  if (!read) return getPendingAsset(deps, input);
  const { row, org } = read;
  const effective = effectiveOf(row, org);
  if (input.expand.size === 0) return renderAsset(row, { effective });
  // expanded findings need the views of their own (loadAssetExpansions loads them with the findings)
  const views = new Map([[row.fingerprint, { effective, findings: new Map() }]]);
  const expansions = await loadAssetExpansions(deps, {
    scope: input.scope,
    assets: [row],
    expand: input.expand,
    views,
  });
  return renderAsset(row, expansions.get(row.fingerprint));
}

/**
 * No asset yet: the pending asset of the org's accepted bulk signal not projected yet (pending-assets.ts,
 * docs/reliability.md "Asset projection"). When nothing is pending the asset is read again: the projection may
 * have committed between the two reads.
 */
async function getPendingAsset(
  deps: Pick<AppDeps, 'prisma' | 'pool'>,
  input: { scope: OrgScope; fingerprint: string; expand: Set<AssetExpand> },
): Promise<Asset> {
  const pending = (await readPendingAssets(deps, { scope: input.scope, fingerprints: [input.fingerprint] })).get(
    input.fingerprint,
  );
  const row = pending ?? (await findAssetOr404(deps, input.scope.livemode, input.fingerprint));
  const expansions = await loadAssetExpansions(deps, { scope: input.scope, assets: [row], expand: input.expand });
  return renderAsset(row, expansions.get(row.fingerprint));
}
