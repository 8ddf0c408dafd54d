// An org's views of an asset show the name and version that org sent itself (asset_orgs), never those of the
// shared asset row, which follow the asset's first observer (docs/security.md "Display fields and feeds"). An org
// that never observed the asset sees the shared ones.
import type { AppDeps } from '../../deps';
import type { OrgScope } from '../triage/org-view';
import { ASSET_SELECT, type AssetRow } from './render';

/** The asset's own fields, which the org's observation replaces. */
const OWN_FIELDS = ['name', 'version'] as const;

/**
 * The asset columns (ASSET_SELECT) for raw SQL over `a`, where `ao` is the org's asset_orgs row, LEFT JOINed
 * with ownObservationJoin: when the org observed the asset, its own name and version (null when it sent none).
 */
export const OWN_ASSET_COLUMNS_SQL = Object.keys(ASSET_SELECT)
  .map((c) =>
    (OWN_FIELDS as readonly string[]).includes(c)
      ? `CASE WHEN ao.org_id IS NULL THEN a.${c} ELSE ao.${c} END AS ${c}`
      : `a.${c}`,
  )
  .join(', ');

/** The org's observation of asset `a`; `org` is an SQL expression (a NULL org joins nothing: shared fields). */
export const ownObservationJoin = (org: string) =>
  `LEFT JOIN asset_orgs ao ON ao.livemode = a.livemode AND ao.fingerprint = a.fingerprint AND ao.org_id = ${org}`;

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
  const { rows: own } = await deps.pool.query<{ fingerprint: string; name: string | null; version: string | null }>({
    name: 'public_api_own_observations',
    text: `SELECT ao.fingerprint, ao.name, ao.version FROM asset_orgs ao
            WHERE ao.livemode = $1 AND ao.org_id = $2 AND ao.fingerprint = ANY($3::text[])`,
    values: [scope.livemode, scope.orgId, rows.map((r) => r.fingerprint)],
  });
  if (own.length === 0) return rows;
  const byFingerprint = new Map(own.map((o) => [o.fingerprint, o]));
  return rows.map((r) => {
    const o = byFingerprint.get(r.fingerprint);
    return o ? { ...r, name: o.name, version: o.version } : r;
  });
}
