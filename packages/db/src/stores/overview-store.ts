/**
 * The org's overview aggregates (docs/public-api.md "Overview"): four named statements, each an aggregate over the
 * org's assets of one mode (`asset_orgs` → `assets`, `findings`, `asset_history`, `threats`). Nothing here loads a
 * row per asset into node: each answers a few dozen rows at most (statuses, severities, buckets, rules, techniques,
 * days, threats). The org's effective view (triage) is applied by the caller on the assets it can touch only.
 */

type Db = { query: (q: { name: string; text: string; values: unknown[] }) => Promise<{ rows: unknown[] }> };

/** Scores are 0–100; the histogram has 10 buckets of 10, the last one 90–100. */
export const OVERVIEW_BUCKETS = 10;

// $1 org, $2 livemode. The CTE is read three times, so Postgres materialises it once.
const ASSETS_SQL = {
  name: 'public_api_overview_assets',
  text: `
  WITH a AS (
    SELECT a.enrichment_status, a.intrinsic_risk_severity, a.intrinsic_risk_score
      FROM asset_orgs ao JOIN assets a ON a.livemode = ao.livemode AND a.fingerprint = ao.fingerprint
     WHERE ao.org_id = $1 AND ao.livemode = $2
  )
  SELECT 'status' AS kind, enrichment_status AS key, count(*)::int AS n FROM a GROUP BY enrichment_status
  UNION ALL
  SELECT 'severity', intrinsic_risk_severity, count(*)::int FROM a
   WHERE intrinsic_risk_severity IS NOT NULL GROUP BY intrinsic_risk_severity
  UNION ALL
  SELECT 'bucket', LEAST(intrinsic_risk_score / 10, 9)::text, count(*)::int FROM a
   WHERE intrinsic_risk_score IS NOT NULL GROUP BY LEAST(intrinsic_risk_score / 10, 9)`,
};

// $1 org, $2 livemode: distinct assets per rule id and per ATLAS technique over the org's current findings.
const TOP_SQL = {
  name: 'public_api_overview_top',
  text: `
  WITH f AS (
    SELECT f.fingerprint, f.rule_id, f.attack_techniques
      FROM asset_orgs ao JOIN findings f ON f.livemode = ao.livemode AND f.fingerprint = ao.fingerprint
     WHERE ao.org_id = $1 AND ao.livemode = $2
  )
  SELECT 'rule' AS kind, rule_id AS key, count(DISTINCT fingerprint)::int AS n FROM f GROUP BY rule_id
  UNION ALL
  SELECT 'technique', t, count(DISTINCT fingerprint)::int FROM f CROSS JOIN LATERAL unnest(f.attack_techniques) t
   GROUP BY t`,
};

// $1 org, $2 livemode, $3 days, $4 now. A risk change is a history entry whose score or severity differs from the
// entry before (what asset.risk_changed reports, docs/history.md); days are UTC calendar days, the last one today.
const RISK_CHANGES_SQL = {
  name: 'public_api_overview_risk_changes',
  text: `
  WITH bounds AS (SELECT ($4::timestamptz AT TIME ZONE 'UTC')::date AS today),
  days AS (SELECT b.today - i AS day FROM bounds b, generate_series(0, $3::int - 1) i),
  changes AS (
    SELECT (h.created AT TIME ZONE 'UTC')::date AS day,
           count(*) FILTER (WHERE h.intrinsic_risk_score > h.previous_risk_score)::int AS up,
           count(*) FILTER (WHERE h.intrinsic_risk_score < h.previous_risk_score)::int AS down,
           count(*)::int AS changes
      FROM bounds b, asset_orgs ao
      JOIN asset_history h ON h.livemode = ao.livemode AND h.fingerprint = ao.fingerprint
     WHERE ao.org_id = $1 AND ao.livemode = $2
       AND h.created >= ((b.today - ($3::int - 1))::timestamp AT TIME ZONE 'UTC') AND h.created <= $4
       AND h.previous_risk_score IS NOT NULL
       AND (h.intrinsic_risk_score IS DISTINCT FROM h.previous_risk_score
            OR h.intrinsic_risk_severity IS DISTINCT FROM h.previous_risk_severity)
     GROUP BY 1
  )
  SELECT to_char(d.day, 'YYYY-MM-DD') AS day, COALESCE(c.changes, 0) AS changes, COALESCE(c.up, 0) AS up,
         COALESCE(c.down, 0) AS down
    FROM days d LEFT JOIN changes c ON c.day = d.day
   ORDER BY d.day`,
};

// $1 org, $2 livemode, $3 limit: the threats matching the org's assets (threat_match findings), the latest match
// first (the enrichment that recorded it).
const THREATS_SQL = {
  name: 'public_api_overview_threats',
  text: `
  SELECT t.id, t.title, t.severity, t.category, m.assets AS matched_assets, m.last_matched
    FROM (SELECT tid, count(DISTINCT f.fingerprint)::int AS assets, max(f.created) AS last_matched
            FROM asset_orgs ao
            JOIN findings f ON f.livemode = ao.livemode AND f.fingerprint = ao.fingerprint
            CROSS JOIN LATERAL unnest(f.threat_ids) tid
           WHERE ao.org_id = $1 AND ao.livemode = $2 AND f.rule_id = 'threat_match'
           GROUP BY tid) m
    JOIN threats t ON t.id = m.tid AND t.livemode = $2
   ORDER BY m.last_matched DESC, t.id DESC
   LIMIT $3`,
};

export interface OverviewCounts {
  /** enrichment status → assets */
  status: Map<string, number>;
  severity: Map<string, number>;
  /** bucket index 0–9 → count */
  bucket: Map<string, number>;
}

export interface OverviewTop {
  rule: Map<string, number>;
  technique: Map<string, number>;
}

export interface OverviewRiskDay {
  day: string;
  changes: number;
  up: number;
  down: number;
}

export interface OverviewThreatRow {
  id: string;
  title: string;
  severity: string;
  category: string;
  matched_assets: number;
  last_matched: Date;
}

type Scope = { orgId: string; livemode: boolean };
type KindRow = { kind: string; key: string; n: number };

function byKind<K extends string>(rows: KindRow[], kinds: readonly K[]): Record<K, Map<string, number>> {
  const out = Object.fromEntries(kinds.map((k) => [k, new Map<string, number>()])) as Record<K, Map<string, number>>;
  for (const r of rows) out[r.kind as K]?.set(r.key, r.n);
  return out;
}

/** Assets by enrichment status, by intrinsic severity and by intrinsic score bucket. */
export async function overviewCounts(db: Db, scope: Scope): Promise<OverviewCounts> {
  const { rows } = await db.query({ ...ASSETS_SQL, values: [scope.orgId, scope.livemode] });
  return byKind(rows as KindRow[], ['status', 'severity', 'bucket'] as const);
}

/** Assets per rule id and per ATLAS technique among the org's current findings (every finding, before triage). */
export async function overviewTop(db: Db, scope: Scope): Promise<OverviewTop> {
  const { rows } = await db.query({ ...TOP_SQL, values: [scope.orgId, scope.livemode] });
  return byKind(rows as KindRow[], ['rule', 'technique'] as const);
}

/** Risk changes per UTC day over the last `days` days, oldest first, every day present. */
export async function overviewRiskChanges(
  db: Db,
  input: Scope & { days: number; now: Date },
): Promise<OverviewRiskDay[]> {
  const { rows } = await db.query({
    ...RISK_CHANGES_SQL,
    values: [input.orgId, input.livemode, input.days, input.now],
  });
  return rows as OverviewRiskDay[];
}

/** The threats matching the org's assets, the latest matched first. */
export async function overviewThreats(db: Db, input: Scope & { limit: number }): Promise<OverviewThreatRow[]> {
  const { rows } = await db.query({ ...THREATS_SQL, values: [input.orgId, input.livemode, input.limit] });
  return rows as OverviewThreatRow[];
}
