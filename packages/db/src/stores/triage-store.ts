import type { Prisma } from '../generated/prisma/client';

/**
 * Per-org triage (docs/triage.md): the statement the worker's maintenance pass runs to end acceptances
 * whose `expires_at` has passed. One set-based statement per batch (no query per finding); the caller
 * writes the history rows and the `finding.triage_expired` events in the same transaction.
 */

/** Acceptances ended per maintenance pass; the rest wait for the next pass (bounded transaction). */
export const TRIAGE_EXPIRY_BATCH = 1000;

export interface ExpiredAcceptance {
  org_id: string;
  livemode: boolean;
  fingerprint: string;
  finding_key: string;
  rule_id: string;
  comment: string | null;
  /** the acceptance's end, now passed */
  expired_at: Date;
  set_by: string;
  created: Date;
  updated: Date;
}

// $1 now, $2 batch size. SKIP LOCKED: an API write in flight on the same row keeps it for the next pass.
const EXPIRE_SQL = `
  WITH due AS (
    SELECT org_id, livemode, fingerprint, finding_key, expires_at FROM finding_triage
     WHERE state = 'accepted_risk' AND expires_at <= $1
     ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED
  )
  UPDATE finding_triage t SET state = 'open', justification = NULL, expires_at = NULL, set_by = 'system', updated = $1
    FROM due
   WHERE t.org_id = due.org_id AND t.livemode = due.livemode AND t.fingerprint = due.fingerprint
     AND t.finding_key = due.finding_key
  RETURNING t.org_id, t.livemode, t.fingerprint, t.finding_key, t.rule_id, t.comment, due.expires_at AS expired_at,
            t.set_by, t.created, t.updated`;

/** Returns accepted_risk rows whose expiry passed to `open`; run inside the caller's transaction. */
export async function expireAcceptedRisks(
  tx: Pick<Prisma.TransactionClient, '$queryRawUnsafe'>,
  input: { now: Date; limit?: number },
): Promise<ExpiredAcceptance[]> {
  return tx.$queryRawUnsafe<ExpiredAcceptance[]>(EXPIRE_SQL, input.now, input.limit ?? TRIAGE_EXPIRY_BATCH);
}

export interface OrgTriageRows {
  suppressions: Array<{
    id: string;
    rule_id: string | null;
    cve_id: string | null;
    attack_technique: string | null;
    fingerprint_glob: string | null;
    asset_type: string | null;
    expires_at: Date | null;
  }>;
  overrides: Array<{ rule_id: string; severity: string }>;
  triage: Array<{
    fingerprint: string;
    finding_key: string;
    rule_id: string;
    state: string;
    justification: string | null;
    comment: string | null;
    expires_at: Date | null;
    set_by: string;
    created: Date;
    updated: Date;
  }>;
}

// The three parts of an org's triage context as jsonb arrays, for the org `org` and mode `mode` (SQL
// expressions) at time `now`; `fingerprintMatch` restricts the triage rows to the assets read. Shared by
// the page read below and the batched asset read (orgTriageLateral).
function triageParts(p: { org: string; mode: string; now: string; fingerprintMatch: string }): string {
  return `
    (SELECT COALESCE(jsonb_agg(jsonb_build_object('id', s.id, 'rule_id', s.rule_id, 'cve_id', s.cve_id,
              'attack_technique', s.attack_technique, 'fingerprint_glob', s.fingerprint_glob,
              'asset_type', s.asset_type, 'expires_at', s.expires_at) ORDER BY s.id), '[]'::jsonb)
       FROM suppression_rules s
      WHERE s.org_id = ${p.org} AND s.livemode = ${p.mode} AND (s.expires_at IS NULL OR s.expires_at > ${p.now})) AS suppressions,
    (SELECT COALESCE(jsonb_agg(jsonb_build_object('rule_id', o.rule_id, 'severity', o.severity)), '[]'::jsonb)
       FROM severity_overrides o WHERE o.org_id = ${p.org} AND o.livemode = ${p.mode}) AS overrides,
    (SELECT COALESCE(jsonb_agg(jsonb_build_object('fingerprint', t.fingerprint, 'finding_key', t.finding_key,
              'rule_id', t.rule_id, 'state', t.state, 'justification', t.justification, 'comment', t.comment,
              'expires_at', t.expires_at, 'set_by', t.set_by, 'created', t.created, 'updated', t.updated)), '[]'::jsonb)
       FROM finding_triage t
      WHERE t.org_id = ${p.org} AND t.livemode = ${p.mode} AND ${p.fingerprintMatch}) AS triage`;
}

// $1 org, $2 livemode, $3 fingerprints, $4 now: the org's active rules, its overrides and its triage of
// the given assets, as three jsonb arrays of one row (one round trip per page of assets).
const ORG_TRIAGE_SQL = {
  name: 'public_api_org_triage',
  text: `SELECT ${triageParts({ org: '$1', mode: '$2', now: '$4', fingerprintMatch: 't.fingerprint = ANY($3::text[])' })}`,
};

/**
 * For a statement that reads assets `a` for orgs (`org` and `now`: SQL expressions; a NULL org reads
 * nothing): a `LEFT JOIN LATERAL … tr ON true` whose columns `suppressions`, `overrides`, `triage`
 * (the org's rows of asset a) and `view_findings` (asset a's findings, only when anything of the org
 * applies, else NULL) parse with parseOrgAssetTriage. This is how the asset read carries the org's view
 * in its own round trip (docs/triage.md "Effective score").
 */
export function orgTriageLateral(p: { org: string; now: string }): string {
  return `
    LEFT JOIN LATERAL (
      SELECT p.suppressions, p.overrides, p.triage,
             CASE WHEN p.suppressions <> '[]'::jsonb OR p.overrides <> '[]'::jsonb OR p.triage <> '[]'::jsonb THEN
               (SELECT COALESCE(json_agg(json_build_object('id', f.id, 'rule_id', f.rule_id, 'title', f.title,
                         'severity', f.severity, 'confidence', f.confidence, 'cve_ids', f.cve_ids,
                         'threat_ids', f.threat_ids, 'attack_techniques', f.attack_techniques,
                         'score_breakdown', f.score_breakdown)), '[]'::json)
                  FROM findings f WHERE f.livemode = a.livemode AND f.fingerprint = a.fingerprint)
             END AS view_findings
        FROM (SELECT ${triageParts({ org: p.org, mode: 'a.livemode', now: p.now, fingerprintMatch: 't.fingerprint = a.fingerprint' })}) p
    ) tr ON true`;
}

/** A finding as the org's view of an asset needs it (what orgTriageLateral reads). */
export interface OrgViewFinding {
  id: string;
  rule_id: string;
  title: string;
  severity: string;
  confidence: number;
  cve_ids: string[];
  threat_ids: string[];
  attack_techniques: string[];
  score_breakdown: unknown;
}

/** One asset's triage context for one org, as orgTriageLateral reads it. */
export type OrgAssetTriage = OrgTriageRows & {
  /** the asset's findings when anything of the org applies, else null (nothing to view: effective = intrinsic) */
  findings: OrgViewFinding[] | null;
};

const date = (v: unknown): Date | null => (typeof v === 'string' ? new Date(v) : null);

interface RawTriageParts {
  suppressions: Array<Record<string, unknown>>;
  overrides: OrgTriageRows['overrides'];
  triage: Array<Record<string, unknown>>;
}

function parseTriageParts(row: RawTriageParts): OrgTriageRows {
  return {
    suppressions: row.suppressions.map((s) => ({
      ...(s as OrgTriageRows['suppressions'][number]),
      expires_at: date(s.expires_at),
    })),
    overrides: row.overrides,
    triage: row.triage.map((t) => ({
      ...(t as OrgTriageRows['triage'][number]),
      expires_at: date(t.expires_at),
      created: date(t.created)!,
      updated: date(t.updated)!,
    })),
  };
}

/** The columns of orgTriageLateral in a row, parsed (the columns are left on the row). */
export function parseOrgAssetTriage(row: RawTriageParts & { view_findings: OrgViewFinding[] | null }): OrgAssetTriage {
  return { ...parseTriageParts(row), findings: row.view_findings };
}

/**
 * One org's triage context (docs/triage.md "Effective score"): its active suppression rules, severity
 * overrides and its triage rows of `fingerprints` (none when empty), in one prepared query.
 */
export async function readOrgTriage(
  db: { query: (q: { name: string; text: string; values: unknown[] }) => Promise<{ rows: unknown[] }> },
  input: { orgId: string; livemode: boolean; fingerprints: string[]; now: Date },
): Promise<OrgTriageRows> {
  const { rows } = await db.query({
    ...ORG_TRIAGE_SQL,
    values: [input.orgId, input.livemode, input.fingerprints, input.now],
  });
  return parseTriageParts(rows[0] as RawTriageParts);
}
