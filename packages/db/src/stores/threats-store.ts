import { Prisma } from '../generated/prisma/client';

/**
 * THE threat ↔ asset matching rule (docs/threats.md), in one place, as SQL:
 *
 *   a threat matches an asset when the asset's fingerprint is in threat.fingerprints, or when
 *   threat.cve_id is among the CVE ids of the asset's findings; and threat.affected_asset_types, when
 *   non-empty, contains the asset's type.
 *
 * "The asset's findings" means rule findings, never `threat_match` findings: those are produced by
 * this very rule (they carry the threat's cve_id), so counting them would keep a threat matched after
 * its fingerprint was removed.
 *
 * Users:
 * - matchingAssetsSql(): threat → assets (create/update a threat; set-based, index-backed)
 * - threatsMatchingAssetWhere(): asset → threats (GET /v1/assets/{fp}/threats via
 *   listThreatsForAsset in services/public-api/src/domain/threats/list-threats.ts, and findThreatsMatchingAsset below for the enrichment
 *   job, which passes the CVE ids of the findings it has just computed instead of the stored ones)
 *
 * Modes: test mode is a sandbox (docs/security.md "Modes and shared observations"). A threat only ever
 * matches assets of its own mode, and an asset is only ever matched by threats of its own mode: every
 * helper here takes the livemode and filters both sides by it.
 */

/** Findings that count for CVE matching. */
export const THREAT_MATCH_RULE_ID = 'threat_match';

export interface ThreatMatchKeys {
  livemode: boolean;
  fingerprints: string[];
  cve_id: string | null;
  affected_asset_types: string[];
}

/**
 * SELECT fingerprint FROM … for the assets (of the threat's mode) a threat with these keys matches. A
 * UNION of the fingerprint look-up (primary key) and the CVE look-up (GIN index on findings.cve_ids),
 * so no query touches assets that cannot match.
 */
export function matchingAssetsSql(keys: ThreatMatchKeys): Prisma.Sql {
  const types = keys.affected_asset_types;
  const typeFilter = types.length > 0 ? Prisma.sql`AND a.asset_type = ANY(${types}::text[])` : Prisma.empty;
  const byFingerprint =
    keys.fingerprints.length > 0
      ? Prisma.sql`SELECT a.fingerprint FROM assets a
          WHERE a.livemode = ${keys.livemode} AND a.fingerprint = ANY(${keys.fingerprints}::text[]) ${typeFilter}`
      : null;
  const byCve = keys.cve_id
    ? Prisma.sql`SELECT DISTINCT a.fingerprint FROM findings f
          JOIN assets a ON a.livemode = f.livemode AND a.fingerprint = f.fingerprint
        WHERE f.livemode = ${keys.livemode} AND f.cve_ids @> ARRAY[${keys.cve_id}]::text[]
          AND f.rule_id <> ${THREAT_MATCH_RULE_ID} ${typeFilter}`
    : null;
  if (byFingerprint && byCve) return Prisma.sql`${byFingerprint} UNION ${byCve}`;
  if (byFingerprint) return byFingerprint;
  if (byCve) return byCve;
  return Prisma.sql`SELECT NULL::text AS fingerprint WHERE false`;
}

export interface AssetMatchKeys {
  livemode: boolean;
  fingerprint: string;
  asset_type: string;
  /** CVE ids of the asset's rule findings (not threat_match findings) */
  cve_ids: string[];
}

/** The asset side of the rule as SQL: values (bound) or column expressions of a batched statement. */
interface AssetMatchSql {
  livemode: Prisma.Sql;
  fingerprint: Prisma.Sql;
  asset_type: Prisma.Sql;
  /** a text[] expression, or null when the asset has no CVE ids */
  cve_ids: Prisma.Sql | null;
}

function assetMatchRule(a: AssetMatchSql): Prisma.Sql {
  const cveClause = a.cve_ids ? Prisma.sql`OR t.cve_id = ANY(${a.cve_ids})` : Prisma.empty;
  return Prisma.sql`t.livemode = ${a.livemode}
    AND (COALESCE(cardinality(t.affected_asset_types), 0) = 0 OR ${a.asset_type} = ANY(t.affected_asset_types))
    AND (t.fingerprints @> ARRAY[${a.fingerprint}]::text[] ${cveClause})`;
}

/** WHERE condition on `threats t` for the threats (of the asset's mode) matching one asset. */
export function threatsMatchingAssetWhere(asset: AssetMatchKeys): Prisma.Sql {
  return assetMatchRule({
    livemode: Prisma.sql`${asset.livemode}`,
    fingerprint: Prisma.sql`${asset.fingerprint}`,
    asset_type: Prisma.sql`${asset.asset_type}`,
    cve_ids: asset.cve_ids.length > 0 ? Prisma.sql`${asset.cve_ids}::text[]` : null,
  });
}

/**
 * The same condition as SQL text over expressions of a batched statement (each a column or a
 * parameter, e.g. `a.livemode`, `$5::text[]`): one rule for one asset or for many in one statement.
 */
export function threatsMatchingAssetExprWhere(e: {
  livemode: string;
  fingerprint: string;
  asset_type: string;
  cve_ids: string;
}): string {
  return assetMatchRule({
    livemode: Prisma.raw(e.livemode),
    fingerprint: Prisma.raw(e.fingerprint),
    asset_type: Prisma.raw(e.asset_type),
    cve_ids: Prisma.raw(e.cve_ids),
  }).text;
}

type RawQuery = Pick<Prisma.TransactionClient, '$queryRaw'>;

/** CVE ids of an asset's stored rule findings (what threat matching compares against). */
export async function assetCveIds(db: RawQuery, asset: { livemode: boolean; fingerprint: string }): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ cve_id: string }>>`
    SELECT DISTINCT unnest(cve_ids) AS cve_id FROM findings
    WHERE livemode = ${asset.livemode} AND fingerprint = ${asset.fingerprint} AND rule_id <> ${THREAT_MATCH_RULE_ID}`;
  return rows.map((r) => r.cve_id);
}

/** The fields of a matching threat the enrichment engine needs (MatchedThreat in @risk/enrichment). */
export interface MatchingThreatRow {
  id: string;
  title: string;
  category: string;
  severity: string;
  risk_penalty: number;
  cve_id: string | null;
  attack_techniques: string[];
  remediation: string | null;
}

/**
 * The threats that enrichment applies to an asset: the threats of the asset's mode matching it (a
 * test-mode threat never changes a live score, nor the reverse; docs/threats.md). For enrichment, pass
 * the CVE ids of the freshly computed rule findings. Ordered by id so results are deterministic.
 */
export async function findThreatsMatchingAsset(db: RawQuery, asset: AssetMatchKeys): Promise<MatchingThreatRow[]> {
  return db.$queryRaw<MatchingThreatRow[]>`
    SELECT t.id, t.title, t.category, t.severity, t.risk_penalty, t.cve_id,
           COALESCE(t.attack_techniques, '{}') AS attack_techniques, t.remediation
    FROM threats t
    WHERE ${threatsMatchingAssetWhere(asset)}
    ORDER BY t.id`;
}
