import { Prisma } from '../generated/prisma/client';
import { PreparedStatements } from '../sql/prepared';
import { HISTORY_SQL, HISTORY_STATEMENT_TYPES } from './history-store';
import { FAN_OUT_EVENTS_SQL } from './events-store';
import { rowByIdSql } from './partitions-store';
import {
  PREVIOUS_TOOLS_LATERAL,
  TOOLS_WRITE_SQL,
  TOOLS_WRITE_TYPES,
  toolBaselineLateral,
} from './tool-baselines-store';
import { threatsMatchingAssetExprWhere, threatsMatchingAssetWhere, type AssetMatchKeys } from './threats-store';

/**
 * The enrichment job's statements (docs/data-access.md "Stores"): the batched job read, the candidate
 * threats, and the write transaction's lock and write, prepared once per pooled connection.
 */

// Everything the engine needs, for a batch of jobs, in one round trip (plain pg, a named statement
// prepared once per connection). The observations and the asset_orgs aggregate sit behind one-time
// filters on the asset row, so a job that is superseded or already enriched — most of a backlog —
// costs one key look-up. Concurrent jobs share a round trip (a MicroBatch in the worker).
//
// The observations (docs/security.md "Modes and shared observations"): every org's latest signal for
// the asset in the job's mode, received within OBSERVATION_TTL_DAYS ($4 = the cutoff), one per distinct
// content digest (equal content analyses alike), newest first. When every observation has expired the
// newest one still describes the asset. Which org observed what never leaves this statement.
//
// Whether the asset has packages recorded by an earlier advisory look-up rides along too (behind the same filter): a job
// whose manifests name no package skips its look-up when none is recorded (docs/advisories.md "Enrichment").
//
// The candidate threats ride in the same statement (behind the same filter): the shared rule with every
// CVE id the engine can report ($5, ADVISORY_CVE_IDS), each with its stamp — what candidateThreatsSql
// reads for one asset, here for every job of the batch.
const THREAT_STAMP_TEXT = `t.id || '@' || t.updated::text`;
const ONCE = `a.latest_digest = j.digest AND NOT (a.enrichment_status = 'enriched' AND a.enriched_digest IS NOT DISTINCT FROM j.digest)`;
export const READ_SQL = `
  SELECT j.i, a.asset_type, a.enrichment_status, a.latest_digest, a.enriched_digest, a.intrinsic_risk_score,
         a.intrinsic_risk_severity, a.first_seen, a.signal_count,
         obs.observations, o.org_count, o.org_signal_count, o.org_first_seen, tb.tool_baseline, th.threats,
         pk.has_packages
    FROM unnest($1::boolean[], $2::text[], $3::text[]) WITH ORDINALITY AS j(livemode, fingerprint, digest, i)
    JOIN assets a ON a.livemode = j.livemode AND a.fingerprint = j.fingerprint
    LEFT JOIN LATERAL (
      SELECT json_agg(json_build_object('asset_type', s.asset_type, 'name', s.name, 'version', s.version,
                                        'source_url', s.source_url, 'raw_manifest', s.raw_manifest, 'metadata', s.metadata,
                                        'artifacts', s.artifacts)
                      ORDER BY d.rn) AS observations
        FROM (
          SELECT u.latest_signal_id, u.last_seen,
                 row_number() OVER (ORDER BY u.last_seen DESC, u.latest_signal_id DESC) AS rn
            FROM (
              SELECT DISTINCT ON (ao.latest_digest) ao.latest_digest, ao.latest_signal_id, ao.last_seen
                FROM asset_orgs ao
               WHERE ao.livemode = a.livemode AND ao.fingerprint = a.fingerprint AND ao.latest_signal_id IS NOT NULL
                 AND ${ONCE}
               ORDER BY ao.latest_digest, ao.last_seen DESC, ao.latest_signal_id DESC
            ) u
        ) d
        CROSS JOIN LATERAL ${rowByIdSql('signals', 'asset_type, name, version, source_url, raw_manifest, metadata, artifacts', 'd.latest_signal_id')} s
       WHERE d.last_seen >= $4 OR d.rn = 1
    ) obs ON true
    LEFT JOIN LATERAL (
      SELECT count(ao.org_id)::int AS org_count, sum(ao.signal_count)::int AS org_signal_count, min(ao.first_seen) AS org_first_seen
        FROM asset_orgs ao
       WHERE ao.livemode = a.livemode AND ao.fingerprint = a.fingerprint AND ${ONCE}
    ) o ON true${toolBaselineLateral(ONCE)}
    LEFT JOIN LATERAL (
      SELECT true AS has_packages FROM asset_packages ap
       WHERE ap.livemode = a.livemode AND ap.fingerprint = a.fingerprint AND ${ONCE} LIMIT 1
    ) pk ON true
    LEFT JOIN LATERAL (
      SELECT json_agg(json_build_object('id', t.id, 'title', t.title, 'category', t.category, 'severity', t.severity,
                                        'risk_penalty', t.risk_penalty, 'cve_id', t.cve_id,
                                        'attack_techniques', COALESCE(t.attack_techniques, '{}'), 'remediation', t.remediation,
                                        'by_fingerprint', t.fingerprints @> ARRAY[a.fingerprint]::text[],
                                        'stamp', ${THREAT_STAMP_TEXT}) ORDER BY t.id) AS threats
        FROM threats t
       WHERE ${ONCE} AND ${threatsMatchingAssetExprWhere({ livemode: 'a.livemode', fingerprint: 'a.fingerprint', asset_type: 'a.asset_type', cve_ids: '$5::text[]' })}
    ) th ON true`;

/**
 * Identifies the version of a threat row; the lock statement aggregates the same expression over the
 * threats that match the asset then, so the write can tell whether they changed while it analysed.
 */
export const THREAT_STAMP = Prisma.raw(THREAT_STAMP_TEXT);

/**
 * The threats (of the job's mode) that may match the asset, read before the engine runs and without any lock: the
 * shared rule (./threats-store.ts) with every CVE id the engine can report (the caller
 * passes ADVISORY_CVE_IDS: rule findings only carry advisory ids) in place of the ones it will compute, each flagged
 * with whether it lists the fingerprint; the analysis thread keeps the CVE-only ones whose CVE id the
 * analysis produced (analysis/task.ts). Bounded by the fingerprint's threats plus the advisories'.
 */
export function candidateThreatsSql(keys: AssetMatchKeys): Prisma.Sql {
  const { fingerprint } = keys;
  return Prisma.sql`
    SELECT t.id, t.title, t.category, t.severity, t.risk_penalty, t.cve_id,
           COALESCE(t.attack_techniques, '{}') AS attack_techniques, t.remediation,
           t.fingerprints @> ARRAY[${fingerprint}]::text[] AS by_fingerprint, ${THREAT_STAMP} AS stamp
      FROM threats t
     WHERE ${threatsMatchingAssetWhere(keys)}
     ORDER BY t.id`;
}
export const CANDIDATE_THREATS_TEXT = candidateThreatsSql({
  livemode: true,
  fingerprint: '',
  asset_type: '',
  cve_ids: [''],
}).text;

/** The lock statement's keys: the threat rule's, and the content hash of the AI-BOM just computed. */
export type LockKeys = AssetMatchKeys & { content_hash: string };

/**
 * Locks the asset row (concurrent jobs for one asset serialise here, and what a job that committed
 * meanwhile wrote is seen) and reads, in the same statement, the latest AI-BOM version, whether any
 * webhook endpoint is enabled at all (when none is, the fan-out statement is skipped) and the stamp of
 * the live threats that match the asset now (the shared rule with the CVE ids just computed), and the digest of the
 * result stored now (the writer's compare-and-set of an out-of-date job, docs/reliability.md "Out-of-date writers").
 * The engine has already run: the lock is held only for this read and the write that follows.
 */
export function lockSql(keys: LockKeys): Prisma.Sql {
  return Prisma.sql`
    SELECT a.latest_digest, a.enriched_digest, a.enrichment_status, b.id AS bom_id, b.bom_version, b.content_hash,
           EXISTS (SELECT 1 FROM webhook_endpoints we WHERE we.status = 'enabled' AND we.livemode = a.livemode) AS has_endpoints,
           (SELECT string_agg(${THREAT_STAMP}, ',' ORDER BY t.id COLLATE "C") FROM threats t
             WHERE ${threatsMatchingAssetWhere(keys)}) AS threat_stamp,
           -- what the change events summarise (docs/history.md "Change events"): the findings this write replaces,
           -- the previous AI-BOM's components and lineage only when the new content differs, the current tool set
           (SELECT json_agg(json_build_object('id', f.id, 'rule_id', f.rule_id, 'title', f.title, 'severity', f.severity,
                                              'cve_ids', f.cve_ids, 'threat_ids', f.threat_ids) ORDER BY f.id)
              FROM findings f WHERE f.livemode = a.livemode AND f.fingerprint = a.fingerprint) AS prev_findings,
           CASE WHEN b.content_hash IS DISTINCT FROM ${keys.content_hash} THEN b.components END AS prev_components,
           CASE WHEN b.content_hash IS DISTINCT FROM ${keys.content_hash} THEN b.lineage END AS prev_lineage,
           pt.prev_tools, pt.has_tool_baseline
      FROM assets a
      LEFT JOIN LATERAL (
        SELECT id, bom_version, content_hash, components, lineage FROM aiboms
         WHERE livemode = a.livemode AND fingerprint = a.fingerprint ORDER BY bom_version DESC LIMIT 1
      ) b ON true${Prisma.raw(PREVIOUS_TOOLS_LATERAL)}
     WHERE a.livemode = ${keys.livemode} AND a.fingerprint = ${keys.fingerprint}
       FOR UPDATE OF a`;
}

// The whole write in one statement: findings replaced, the AI-BOM version inserted when its content
// changed, the events inserted, the asset updated, all in the job's mode ($24). (Data-modifying CTEs
// always run to completion.)
const WRITE_SQL = `
  WITH del AS (DELETE FROM findings WHERE livemode = $24 AND fingerprint = $1),
  ins AS (
    INSERT INTO findings (id, livemode, fingerprint, rule_id, title, description, severity, category, confidence, evidence,
      capabilities, attack_techniques, cve_ids, threat_ids, remediation, score_contribution, score_breakdown,
      benchmark, enrichment_digest, created)
    SELECT f.id, $24, $1, f.rule_id, f.title, f.description, f.severity, f.category, f.confidence, f.evidence,
      ARRAY(SELECT jsonb_array_elements_text(f.capabilities)), ARRAY(SELECT jsonb_array_elements_text(f.attack_techniques)),
      ARRAY(SELECT jsonb_array_elements_text(f.cve_ids)), ARRAY(SELECT jsonb_array_elements_text(f.threat_ids)),
      f.remediation, f.score_contribution, f.score_breakdown, f.benchmark, $2, now()
    FROM jsonb_to_recordset($4) AS f(id text, rule_id text, title text, description text, severity text,
      category text, confidence float8, evidence jsonb, capabilities jsonb, attack_techniques jsonb, cve_ids jsonb,
      threat_ids jsonb, remediation text, score_contribution float8, score_breakdown jsonb, benchmark jsonb)
  ),
  bom AS (
    INSERT INTO aiboms (id, livemode, fingerprint, bom_version, content_hash, spdx_version, spdx, components, lineage, cyclonedx, created)
    SELECT $5, $24, $1, $6, $7, $8, $9, $10, $11, $12, now() WHERE $13
  ),
  ev AS (
    INSERT INTO events (id, type, livemode, org_id, fingerprint, data, created)
    SELECT e.id, e.type, $24, NULL, $1, e.data, now()
    FROM jsonb_to_recordset($23) AS e(id text, type text, data jsonb)
  )
  UPDATE assets SET intrinsic_risk_score = $14, intrinsic_risk_severity = $15, publisher_trust = $16,
    benchmark_summary = $17, score_breakdown = $18, normalized_name = COALESCE($19, normalized_name),
    publisher = $20, ecosystem = $21, current_aibom_id = $5, enriched_digest = $2, enriched_at = $3,
    enrichment_status = $22, enrichment_error = NULL, updated = $3
  WHERE livemode = $24 AND fingerprint = $1`;

// ── the write transaction's statements, prepared once per pooled connection ──
// Server-side prepared statements run through EXECUTE in simple-protocol queries, so BEGIN + the lock
// read travel in one round trip and the write (+ fan-out) + COMMIT in a second, with no re-parsing or
// re-planning. Arguments are SQL literals (a simple query has no bind parameters) from the one
// formatter (../sql/literal.ts).
const typeOf = (v: unknown) => (Array.isArray(v) ? 'text[]' : typeof v === 'boolean' ? 'boolean' : 'text');
const LOCK_SHAPES = {
  // the threat rule's SQL differs with and without CVE ids; each shape is its own statement
  ew_lock_fp: lockSql({ livemode: true, fingerprint: '', asset_type: '', cve_ids: [], content_hash: '' }),
  ew_lock_cve: lockSql({ livemode: true, fingerprint: '', asset_type: '', cve_ids: [''], content_hash: '' }),
};
export const ENRICHMENT_WRITE_STATEMENTS = new PreparedStatements({
  ew_lock_fp: { types: LOCK_SHAPES.ew_lock_fp.values.map(typeOf), sql: LOCK_SHAPES.ew_lock_fp.text },
  ew_lock_cve: { types: LOCK_SHAPES.ew_lock_cve.values.map(typeOf), sql: LOCK_SHAPES.ew_lock_cve.text },
  ew_write: {
    types: [
      'text',
      'text',
      'timestamptz',
      'jsonb',
      'text',
      'int',
      'text',
      'text',
      'jsonb',
      'jsonb',
      'jsonb',
      'jsonb',
      'boolean',
      'int',
      'text',
      'jsonb',
      'jsonb',
      'jsonb',
      'text',
      'text',
      'text',
      'text',
      'jsonb',
      'boolean',
    ],
    sql: WRITE_SQL,
  },
  // a batch of several assets locks them all first, in the order every writer of several assets takes
  // (docs/reliability.md "Lock order"; ri_assets_lock in signals-statements.ts does the same for ingest)
  ew_lock_all: {
    types: ['boolean[]', 'text[]'],
    sql: `SELECT 1 FROM unnest($1, $2) AS t(livemode, fingerprint)
          JOIN assets a ON a.livemode = t.livemode AND a.fingerprint = t.fingerprint
          ORDER BY a.livemode, a.fingerprint FOR UPDATE OF a`,
  },
  ew_fanout: { types: ['text[]'], sql: FAN_OUT_EVENTS_SQL },
  // the asset history entry (docs/history.md), run before ew_write in the same transaction
  ew_history: { types: HISTORY_STATEMENT_TYPES, sql: HISTORY_SQL },
  // the asset's tool baselines and current tool set (docs/drift.md), when it has or had tools
  ew_tools: { types: TOOLS_WRITE_TYPES, sql: TOOLS_WRITE_SQL },
});
