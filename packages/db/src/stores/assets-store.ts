// Reads of assets beyond Prisma's CRUD (docs/public-api.md "Assets"): the batched primary-key read with an org's view,
// an org's own observations, and the look-up by name. An org's views of an asset show the name and version that org
// sent itself (asset_orgs), never those of the shared asset row (docs/security.md "Display fields and feeds").
import type { Pool } from 'pg';
import { orgTriageLateral, parseOrgAssetTriage, type OrgAssetTriage } from './triage-store';

/** The asset columns the API renders (a subset of the assets table), as a Prisma `select`. */
export const ASSET_SELECT = {
  fingerprint: true,
  asset_type: true,
  name: true,
  version: true,
  ecosystem: true,
  publisher: true,
  enrichment_status: true,
  intrinsic_risk_score: true,
  intrinsic_risk_severity: true,
  publisher_trust: true,
  benchmark_summary: true,
  current_aibom_id: true,
  signal_count: true,
  first_seen: true,
  last_seen: true,
  enriched_at: true,
  created: true,
  updated: true,
} as const;

/** Those columns as a row. */
export interface AssetRow {
  fingerprint: string;
  asset_type: string;
  name: string | null;
  version: string | null;
  ecosystem: string | null;
  publisher: string | null;
  enrichment_status: string;
  intrinsic_risk_score: number | null;
  intrinsic_risk_severity: string | null;
  publisher_trust: unknown;
  benchmark_summary: unknown;
  current_aibom_id: string | null;
  signal_count: number;
  first_seen: Date;
  last_seen: Date;
  enriched_at: Date | null;
  created: Date;
  updated: Date;
}

/** The asset's own fields, which the org's observation replaces. */
const OWN_FIELDS = ['name', 'version'] as const;

/**
 * ASSET_SELECT's columns over `a`, where `ao` is the org's asset_orgs row LEFT JOINed with ownObservationJoin: when the
 * org observed the asset, its own name and version (null when it sent none).
 */
const OWN_ASSET_COLUMNS_SQL = Object.keys(ASSET_SELECT)
  .map((c) =>
    (OWN_FIELDS as readonly string[]).includes(c)
      ? `CASE WHEN ao.org_id IS NULL THEN a.${c} ELSE ao.${c} END AS ${c}`
      : `a.${c}`,
  )
  .join(', ');

/**
 * The org's observation of the asset read by `key` (its mode and fingerprint, SQL expressions of the key, not of `a`);
 * `org` is an SQL expression (a NULL org joins nothing: shared fields). A lateral probe on the key's own expressions,
 * so all three columns of asset_orgs' primary key are index conditions whatever the statistics: joined on `a`'s
 * columns, a plan made before the table's first ANALYZE (a fresh org's first minutes) read the org's whole org_id
 * index once per key (10–20 ms for 500 keys) or asset_orgs sequentially (docs/performance.md "The 500-key look-up";
 * packages/db/test/asset-read-plan.test.ts).
 */
const ownObservationJoin = (org: string, key: { livemode: string; fingerprint: string }) =>
  `LEFT JOIN LATERAL (SELECT * FROM asset_orgs ao
      WHERE ao.livemode = ${key.livemode} AND ao.fingerprint = ${key.fingerprint} AND ao.org_id = ${org} LIMIT 1) ao ON true`;

// One row per read key, in key order ($1 modes, $2 fingerprints, $3 org ids (NULL: no org's view), $4 now): the asset
// of the key's mode (a primary-key look-up: a key reads only the assets of its own mode) and, for a key with an org,
// the org's own name and version of it and its triage context of it (docs/triage.md "Effective score").
// The asset is a lateral primary-key probe per key, as the observation is: joined as a table, a plan made on a fresh
// deployment's statistics read assets sequentially.
export const BY_KEYS_SQL = `SELECT j.i, ${OWN_ASSET_COLUMNS_SQL}, tr.suppressions, tr.overrides, tr.triage, tr.view_findings
  FROM unnest($1::boolean[], $2::text[], $3::text[]) WITH ORDINALITY AS j(livemode, fingerprint, org_id, i)
  CROSS JOIN LATERAL (SELECT * FROM assets a WHERE a.livemode = j.livemode AND a.fingerprint = j.fingerprint LIMIT 1) a
  ${ownObservationJoin('j.org_id', { livemode: 'j.livemode', fingerprint: 'j.fingerprint' })}${orgTriageLateral({ org: 'j.org_id', now: '$4' })}`;

/** One key of the batched read: the asset of a mode, for an org's view or none. */
export interface AssetReadKey {
  livemode: boolean;
  fingerprint: string;
  orgId: string | null;
}

type ByKeysRow = AssetRow & { i: string } & Parameters<typeof parseOrgAssetTriage>[0];

/**
 * The assets of `keys` in ONE statement (a named statement, planned once per connection), each with its key's org's
 * triage context as of `now`. Answers, per key index, the asset found (absent keys are missing from the map).
 */
export async function readAssetsByKeys(
  db: Pick<Pool, 'query'>,
  input: { keys: readonly AssetReadKey[]; now: Date },
): Promise<Map<number, { row: AssetRow; org: OrgAssetTriage }>> {
  const { keys, now } = input;
  const { rows } = await db.query<ByKeysRow>({
    name: 'public_api_assets_by_keys',
    text: BY_KEYS_SQL,
    values: [keys.map((k) => k.livemode), keys.map((k) => k.fingerprint), keys.map((k) => k.orgId), now],
  });
  const found = new Map<number, { row: AssetRow; org: OrgAssetTriage }>();
  for (const r of rows) {
    const { i, suppressions, overrides, triage, view_findings, ...row } = r;
    found.set(Number(i) - 1, { row, org: parseOrgAssetTriage({ suppressions, overrides, triage, view_findings }) });
  }
  return found;
}

/** The org's own name and version of those of `fingerprints` it observed in the mode (one primary-key read). */
export async function readOwnObservations(
  db: Pick<Pool, 'query'>,
  input: { livemode: boolean; orgId: string; fingerprints: string[] },
): Promise<Array<{ fingerprint: string; name: string | null; version: string | null }>> {
  const { rows } = await db.query<{ fingerprint: string; name: string | null; version: string | null }>({
    name: 'public_api_own_observations',
    text: `SELECT ao.fingerprint, ao.name, ao.version FROM asset_orgs ao
            WHERE ao.livemode = $1 AND ao.org_id = $2 AND ao.fingerprint = ANY($3::text[])`,
    values: [input.livemode, input.orgId, input.fingerprints],
  });
  return rows;
}

/** readAssetsForOrg's statement: $1 fingerprints, $2 mode, $3 org (exported for its plan test). */
export const ASSETS_FOR_ORG_SQL = `SELECT a.* FROM unnest($1::text[]) AS k(fingerprint)
  CROSS JOIN LATERAL (
    SELECT ${OWN_ASSET_COLUMNS_SQL} FROM assets a ${ownObservationJoin('$3', { livemode: '$2', fingerprint: 'k.fingerprint' })}
     WHERE a.livemode = $2 AND a.fingerprint = k.fingerprint LIMIT 1
  ) a`;

/**
 * The assets of `fingerprints` (distinct) in the mode, with the org's own name and version: one primary-key probe per
 * fingerprint. `fingerprint = ANY($1)` with 500 keys was planned as a sequential scan of every asset of the mode
 * whatever the statistics; the LIMIT keeps each key's subquery a nested-loop index probe (docs/performance.md).
 */
export async function readAssetsForOrg(
  db: Pick<Pool, 'query'>,
  input: { livemode: boolean; orgId: string | null; fingerprints: string[] },
): Promise<AssetRow[]> {
  const { rows } = await db.query<AssetRow>(ASSETS_FOR_ORG_SQL, [
    [...new Set(input.fingerprints)],
    input.livemode,
    input.orgId,
  ]);
  return rows;
}

/** A name key of the look-up: the normalised name, and the version and ecosystem it must have (null: any). */
export interface AssetNameKey {
  normalized: string;
  version: string | null;
  ecosystem: string | null;
}

/**
 * The exact name match of every key in one statement: per key index (0-based), the most recently seen asset of the
 * mode with that normalised name (and version and ecosystem when given).
 */
export async function findAssetsByExactName(
  db: Pick<Pool, 'query'>,
  input: { livemode: boolean; keys: readonly AssetNameKey[] },
): Promise<Map<number, string>> {
  const { keys } = input;
  const out = new Map<number, string>();
  if (keys.length === 0) return out;
  const { rows } = await db.query<{ idx: number; fingerprint: string }>(
    `SELECT DISTINCT ON (k.idx) k.idx::int AS idx, a.fingerprint
     FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS k(nname, version, ecosystem, idx)
     JOIN assets a ON a.livemode = $4 AND a.normalized_name = k.nname
                  AND (k.version IS NULL OR a.version = k.version)
                  AND (k.ecosystem IS NULL OR lower(a.ecosystem) = lower(k.ecosystem))
     ORDER BY k.idx, a.last_seen DESC, a.fingerprint`,
    [keys.map((k) => k.normalized), keys.map((k) => k.version), keys.map((k) => k.ecosystem), input.livemode],
  );
  for (const r of rows) out.set(r.idx - 1, r.fingerprint);
  return out;
}

/**
 * Trigram candidates of every key in one statement (a LATERAL per key): up to `limit` assets of the mode per key, most
 * similar first, with their similarity. Rows in key order, `idx` the key's given index.
 */
export async function findAssetNameCandidates(
  db: Pick<Pool, 'query'>,
  input: { livemode: boolean; keys: ReadonlyArray<{ normalized: string; index: number }>; limit: number },
): Promise<Array<{ idx: number; fingerprint: string; sim: number }>> {
  const limit = Math.trunc(input.limit);
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error('findAssetNameCandidates: limit must be positive');
  const { rows } = await db.query<{ idx: number; fingerprint: string; sim: number }>(
    `SELECT k.idx, c.fingerprint, c.sim
     FROM unnest($1::text[], $2::int[]) AS k(nname, idx)
     CROSS JOIN LATERAL (
       SELECT a.fingerprint, similarity(a.normalized_name, k.nname)::float8 AS sim
       FROM assets a
       WHERE a.livemode = $3 AND a.normalized_name % k.nname
       ORDER BY sim DESC, a.last_seen DESC, a.fingerprint
       LIMIT ${limit}
     ) c
     ORDER BY k.idx, c.sim DESC`,
    [input.keys.map((k) => k.normalized), input.keys.map((k) => k.index), input.livemode],
  );
  return rows;
}
