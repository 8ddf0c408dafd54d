// An org's views of an asset show the name and version that org sent itself (asset_orgs), never those of the
// shared asset row, which follow the asset's first observer (docs/security.md "Display fields and feeds"). An org
// that never observed the asset sees the shared ones.
import { readOwnObservations } from '@risk/db';
import type { AppDeps } from '../../deps';
import type { OrgScope } from '../triage/org-view';
import type { AssetRow } from './render';

/**
 * Rows read without the join (the Prisma list) with the org's own fields put in: one primary-key read of the
 * org's observations of the page.
 */
export async function withOwnObservation(
  deps: Pick<AppDeps, 'pool'>,
  scope: OrgScope,
  rows: AssetRow[],
): Promise<AssetRow[]> {
  if (rows.length === 0) return rows;
  const own = await readOwnObservations(deps.pool, {
    livemode: scope.livemode,
    orgId: scope.orgId,
    fingerprints: rows.map((r) => r.fingerprint),
  });
  if (own.length === 0) return rows;
  const byFingerprint = new Map(own.map((o) => [o.fingerprint, o]));
  return rows.map((r) => {
    const o = byFingerprint.get(r.fingerprint);
    return o ? { ...r, name: o.name, version: o.version } : r;
  });
}
