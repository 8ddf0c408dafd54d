// Assets of accepted bulk signals not projected yet (docs/reliability.md "Asset projection"): GET /v1/assets/{fp}
// and the look-up answer them as `pending` from the stored signals, never 404.
import { readPendingSignals } from '@risk/db';
import type { AppDeps } from '../../deps';
import { aggregateAssets, newAssetRow } from '../signals/ingest-rows';
import type { OrgScope } from '../triage/org-view';
import type { AssetRow } from './render';

/**
 * The pending assets of these fingerprints, built from the key's org's own signals that await projection (the
 * row the projection will insert, `enrichment_status: pending`). Only the org's signals of its mode: a fingerprint
 * another org submitted stays 404 to this one until it is projected (assets are shared once they exist).
 */
export async function readPendingAssets(
  deps: Pick<AppDeps, 'pool'>,
  input: { scope: OrgScope; fingerprints: readonly string[] },
): Promise<Map<string, AssetRow>> {
  const signals = await readPendingSignals(deps.pool, {
    orgId: input.scope.orgId,
    livemode: input.scope.livemode,
    fingerprints: input.fingerprints,
  });
  const out = new Map<string, AssetRow>();
  if (signals.length === 0) return out;
  const { assets } = aggregateAssets([signals]);
  const accepted = new Map<string, Date>();
  for (const s of signals) accepted.set(s.fingerprint, s.created);
  for (const a of assets) out.set(a.fingerprint, newAssetRow(a, accepted.get(a.fingerprint)!).row);
  return out;
}
