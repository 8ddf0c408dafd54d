import { performance } from 'node:perf_hooks';
import {
  FAN_OUT_EVENTS_SQL,
  ID_PREFIXES,
  enqueueDeliveries,
  newId,
  recordEventsWithDeliveries,
  sha256Hex,
  THREAT_MATCH_RULE_ID,
  threatsMatchingAssetWhere,
  type EnrichmentJob,
  type FannedOutDelivery,
  type AssetMatchKeys,
  type MatchingThreatRow,
  type NewEvent,
} from '@risk/common';
import { Prisma } from '@risk/db';
import {
  ADVISORY_CVE_IDS,
  redactText,
  type AssetType,
  type EnrichmentInput,
  type EnrichmentResult,
  type Severity,
} from '@risk/enrichment';
import type { Pool, PoolClient, QueryResult } from 'pg';
import { analysisPoolFor, testBusyMs } from '../analysis/pool';
import type { CandidateThreat } from '../analysis/task';
import type { WorkerDeps } from '../deps';

export type EnrichmentOutcome =
  | { outcome: 'enriched'; fingerprint: string; score: number; bom_version: number; timings: EnrichmentTimings }
  | {
      outcome: 'skipped';
      fingerprint: string;
      reason: 'asset_missing' | 'superseded' | 'up_to_date' | 'signal_missing';
    };

/**
 * Where a job's time goes (the bench reports the shares): read_ms = the reads before the engine (the
 * job's row and signal, then the candidate threats), engine_ms = the pure engine in the analysis thread
 * pool (queueing for a thread included), write_ms = the write transaction.
 */
export interface EnrichmentTimings {
  read_ms: number;
  engine_ms: number;
  write_ms: number;
}

/** One org's latest observation of the asset: the content of its latest signal. */
interface Observation {
  asset_type: string;
  name: string | null;
  version: string | null;
  source_url: string | null;
  raw_manifest: string | null;
  metadata: Record<string, unknown> | null;
}

/** The asset as the job reads it, plus — only when the job has work to do — its observations and orgs. */
interface JobRead {
  asset_type: string;
  enrichment_status: string;
  latest_digest: string;
  enriched_digest: string | null;
  intrinsic_risk_score: number | null;
  intrinsic_risk_severity: string | null;
  first_seen: Date;
  signal_count: number;
  /** newest first; null when the job has nothing to do */
  observations: Observation[] | null;
  org_count: number | null;
  org_signal_count: number | null;
  org_first_seen: Date | null;
}

// Everything the engine needs, for a batch of jobs, in one round trip (plain pg, a named statement
// prepared once per connection). The observations and the asset_orgs aggregate sit behind one-time
// filters on the asset row, so a job that is superseded or already enriched — most of a backlog —
// costs one key look-up. Concurrent jobs share a round trip (ReadBatcher below).
//
// The observations (docs/security.md "Modes and shared observations"): every org's latest signal for
// the asset in the job's mode, received within OBSERVATION_TTL_DAYS ($4 = the cutoff), one per distinct
// content digest (equal content analyses alike), newest first. When every observation has expired the
// newest one still describes the asset. Which org observed what never leaves this statement.
const ONCE = `a.latest_digest = j.digest AND NOT (a.enrichment_status = 'enriched' AND a.enriched_digest IS NOT DISTINCT FROM j.digest)`;
const READ_SQL = `
  SELECT j.i, a.asset_type, a.enrichment_status, a.latest_digest, a.enriched_digest, a.intrinsic_risk_score,
         a.intrinsic_risk_severity, a.first_seen, a.signal_count,
         obs.observations, o.org_count, o.org_signal_count, o.org_first_seen
    FROM unnest($1::boolean[], $2::text[], $3::text[]) WITH ORDINALITY AS j(livemode, fingerprint, digest, i)
    JOIN assets a ON a.livemode = j.livemode AND a.fingerprint = j.fingerprint
    LEFT JOIN LATERAL (
      SELECT json_agg(json_build_object('asset_type', s.asset_type, 'name', s.name, 'version', s.version,
                                        'source_url', s.source_url, 'raw_manifest', s.raw_manifest, 'metadata', s.metadata)
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
        JOIN signals s ON s.id = d.latest_signal_id
       WHERE d.last_seen >= $4 OR d.rn = 1
    ) obs ON true
    LEFT JOIN LATERAL (
      SELECT count(ao.org_id)::int AS org_count, sum(ao.signal_count)::int AS org_signal_count, min(ao.first_seen) AS org_first_seen
        FROM asset_orgs ao
       WHERE ao.livemode = a.livemode AND ao.fingerprint = a.fingerprint AND ${ONCE}
    ) o ON true`;

interface PendingRead {
  livemode: boolean;
  fingerprint: string;
  digest: string;
  resolve: (row: JobRead | undefined) => void;
  reject: (err: unknown) => void;
}

/**
 * Group reads like a group commit: a read issued while MAX_IN_FLIGHT batches are out waits for the
 * next round trip and shares it with every other read queued meanwhile. A lone read (low load) goes
 * out on the next tick, so it waits for nothing. A failed batch fails each of its jobs (BullMQ retries).
 */
class ReadBatcher {
  private static readonly MAX_IN_FLIGHT = 2;
  private static readonly MAX_BATCH = 100;
  private pending: PendingRead[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly pool: Pool,
    private readonly observationTtlDays: number,
  ) {}

  read(job: EnrichmentJob): Promise<JobRead | undefined> {
    return new Promise((resolve, reject) => {
      this.pending.push({ livemode: job.livemode, fingerprint: job.fingerprint, digest: job.digest, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= ReadBatcher.MAX_IN_FLIGHT || this.pending.length === 0) return;
    this.scheduled = true;
    process.nextTick(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    const batch = this.pending.splice(0, ReadBatcher.MAX_BATCH);
    if (batch.length === 0) return;
    this.inFlight += 1;
    this.pool
      .query<JobRead & { i: string }>({
        name: 'enrichment_read',
        text: READ_SQL,
        values: [
          batch.map((r) => r.livemode),
          batch.map((r) => r.fingerprint),
          batch.map((r) => r.digest),
          new Date(Date.now() - this.observationTtlDays * 86_400_000),
        ],
      })
      .then(
        ({ rows }) => {
          const byIndex = new Map(rows.map((r) => [Number(r.i), r]));
          batch.forEach((r, k) => r.resolve(byIndex.get(k + 1)));
        },
        (err: unknown) => batch.forEach((r) => r.reject(err)),
      )
      .finally(() => {
        this.inFlight -= 1;
        this.schedule();
      });
  }
}

const batchers = new WeakMap<Pool, ReadBatcher>();
function readJob(deps: WorkerDeps, job: EnrichmentJob): Promise<JobRead | undefined> {
  let b = batchers.get(deps.pool);
  if (!b) batchers.set(deps.pool, (b = new ReadBatcher(deps.pool, deps.config.OBSERVATION_TTL_DAYS)));
  return b.read(job);
}

/**
 * One enrichment job (livemode + fingerprint + observation-set digest). Idempotent: a job whose digest
 * is already enriched (status enriched) or superseded by a newer observation set does nothing, so a job
 * run twice after a crash enriches once. The engine combines every org's latest observation
 * (analyzeObservations); everything the job writes — findings, a new AI-BOM version when its content
 * changed, the asset's scores and status, and the events, all in the job's mode — commits in one
 * transaction.
 */
export async function enrichAsset(deps: WorkerDeps, job: EnrichmentJob): Promise<EnrichmentOutcome> {
  const t0 = performance.now();
  const asset = await readJob(deps, job);
  if (!asset) return { outcome: 'skipped', fingerprint: job.fingerprint, reason: 'asset_missing' };
  if (asset.latest_digest !== job.digest)
    return { outcome: 'skipped', fingerprint: job.fingerprint, reason: 'superseded' };
  if (asset.enrichment_status === 'enriched' && asset.enriched_digest === job.digest) {
    return { outcome: 'skipped', fingerprint: job.fingerprint, reason: 'up_to_date' };
  }
  if (!asset.observations || asset.observations.length === 0)
    return { outcome: 'skipped', fingerprint: job.fingerprint, reason: 'signal_missing' };
  const { threats, stamps } = await readCandidateThreats(deps.pool, job.livemode, job.fingerprint, asset.asset_type);
  const t1 = performance.now();

  // The whole engine runs in the analysis thread pool, under the per-job deadline, before any
  // transaction begins: no row lock is held while analysing (docs/security.md, "Analysis under a
  // budget"). The threats were read just above, without the lock. A threat created or changed while
  // the analysis runs is not lost: creating/changing a threat marks its matching assets stale and
  // re-enqueues them (services/public-api/src/domain/threats/reenrich.ts), and the write below
  // compares the matching threats under the lock with the ones applied and, when they differ, leaves
  // the asset stale with one more job queued (writeEnrichment). The engine combines every org's latest
  // observation (docs/security.md, "Modes and shared observations").
  const inputs = asset.observations.map((o): EnrichmentInput => ({
    ...o,
    fingerprint: job.fingerprint,
    asset_type: o.asset_type as AssetType,
  }));
  const now = new Date();
  const result = await analysisPoolFor(deps.config).run(
    'enrich',
    [
      inputs,
      {
        threats,
        publisher: {
          org_count: asset.org_count ?? 0,
          signal_count: asset.org_signal_count ?? asset.signal_count,
          first_seen: (asset.org_first_seen ?? asset.first_seen).toISOString(),
        },
        now: now.toISOString(),
      },
    ],
    { busyMs: testBusyMs(deps.config, inputs.map((i) => i.raw_manifest ?? '').join('\n')) },
  );
  const t2 = performance.now();
  if (deps.config.ENRICHMENT_TEST_DELAY_MS > 0) {
    await new Promise((r) => setTimeout(r, deps.config.ENRICHMENT_TEST_DELAY_MS));
  }
  const t3 = performance.now();
  const { bomVersion, deliveries } = await writeEnrichment(deps, asset, job, result, stamps, now);
  const t4 = performance.now();
  // after commit: hand the webhook deliveries to the queue (the outbox relay covers a failure)
  await enqueueDeliveries(deps.prisma, deps.producer, deliveries);
  return {
    outcome: 'enriched',
    fingerprint: job.fingerprint,
    score: result.intrinsic_risk_score,
    bom_version: bomVersion,
    timings: { read_ms: t1 - t0, engine_ms: t2 - t1, write_ms: t4 - t3 },
  };
}

interface LockedRow {
  latest_digest: string;
  enrichment_status: string;
  bom_id: string | null;
  bom_version: number | null;
  content_hash: string | null;
  has_endpoints: boolean;
  threat_stamp: string | null;
}

/**
 * Identifies the version of a threat row; the lock statement aggregates the same expression over the
 * threats that match the asset then, so the write can tell whether they changed while it analysed.
 */
const THREAT_STAMP = Prisma.raw(`t.id || '@' || t.updated::text`);

/**
 * The threats (of the job's mode) that may match the asset, read before the engine runs and without any lock: the
 * shared rule (packages/common/src/threat-match.ts) with every CVE id the engine can report in place
 * of the ones it will compute (rule findings only carry advisory ids, ADVISORY_CVE_IDS), each flagged
 * with whether it lists the fingerprint; the analysis thread keeps the CVE-only ones whose CVE id the
 * analysis produced (analysis/task.ts). Bounded by the fingerprint's threats plus the advisories'.
 */
function candidateThreatsSql(livemode: boolean, fingerprint: string, assetType: string): Prisma.Sql {
  const keys = { livemode, fingerprint, asset_type: assetType, cve_ids: [...ADVISORY_CVE_IDS] };
  return Prisma.sql`
    SELECT t.id, t.title, t.category, t.severity, t.risk_penalty, t.cve_id,
           COALESCE(t.attack_techniques, '{}') AS attack_techniques, t.remediation,
           t.fingerprints @> ARRAY[${fingerprint}]::text[] AS by_fingerprint, ${THREAT_STAMP} AS stamp
      FROM threats t
     WHERE ${threatsMatchingAssetWhere(keys)}
     ORDER BY t.id`;
}
const CANDIDATE_THREATS_TEXT = candidateThreatsSql(true, '', '').text;

async function readCandidateThreats(
  pool: Pool,
  livemode: boolean,
  fingerprint: string,
  assetType: string,
): Promise<{ threats: CandidateThreat[]; stamps: Map<string, string> }> {
  const { rows } = await pool.query<MatchingThreatRow & { by_fingerprint: boolean; stamp: string }>({
    name: 'enrichment_threats',
    text: CANDIDATE_THREATS_TEXT,
    values: candidateThreatsSql(livemode, fingerprint, assetType).values,
  });
  return {
    threats: rows.map(({ stamp: _, ...t }) => ({ ...t, severity: t.severity as Severity })),
    stamps: new Map(rows.map((t) => [t.id, t.stamp])),
  };
}

/** The stamp of the threats the analysis applied, as the lock statement spells it (ids in C order). */
function appliedThreatStamp(result: EnrichmentResult, stamps: Map<string, string>): string {
  const ids = new Set(result.findings.filter((f) => f.rule_id === THREAT_MATCH_RULE_ID).flatMap((f) => f.threat_ids));
  return [...ids]
    .sort()
    .map((id) => stamps.get(id) ?? id)
    .join(',');
}

/**
 * Locks the asset row (concurrent jobs for one asset serialise here, and what a job that committed
 * meanwhile wrote is seen) and reads, in the same statement, the latest AI-BOM version, whether any
 * webhook endpoint is enabled at all (when none is, the fan-out statement is skipped) and the stamp of
 * the live threats that match the asset now (the shared rule with the CVE ids just computed). The
 * engine has already run: the lock is held only for this read and the write that follows.
 */
function lockSql(keys: AssetMatchKeys): Prisma.Sql {
  return Prisma.sql`
    SELECT a.latest_digest, a.enrichment_status, b.id AS bom_id, b.bom_version, b.content_hash,
           EXISTS (SELECT 1 FROM webhook_endpoints we WHERE we.status = 'enabled' AND we.livemode = a.livemode) AS has_endpoints,
           (SELECT string_agg(${THREAT_STAMP}, ',' ORDER BY t.id COLLATE "C") FROM threats t
             WHERE ${threatsMatchingAssetWhere(keys)}) AS threat_stamp
      FROM assets a
      LEFT JOIN LATERAL (
        SELECT id, bom_version, content_hash FROM aiboms
         WHERE livemode = a.livemode AND fingerprint = a.fingerprint ORDER BY bom_version DESC LIMIT 1
      ) b ON true
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
// re-planning. Arguments are SQL literals (a simple query has no bind parameters): strings through
// sqlString (pg's escapeLiteral output), the rest formatted here for the declared parameter types.
const typeOf = (v: unknown) => (Array.isArray(v) ? 'text[]' : typeof v === 'boolean' ? 'boolean' : 'text');
const LOCK_SHAPES = {
  // the threat rule's SQL differs with and without CVE ids; each shape is its own statement
  ew_lock_fp: lockSql({ livemode: true, fingerprint: '', asset_type: '', cve_ids: [] }),
  ew_lock_cve: lockSql({ livemode: true, fingerprint: '', asset_type: '', cve_ids: [''] }),
};
const STATEMENTS: Record<string, { types: string[]; sql: string }> = {
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
  ew_fanout: { types: ['text[]'], sql: FAN_OUT_EVENTS_SQL },
};
const PREPARE_ALL = Object.entries(STATEMENTS)
  .map(([name, st]) => `PREPARE ${name}(${st.types.join(', ')}) AS ${st.sql}`)
  .join(';\n');
const preparedOn = new WeakSet<PoolClient>();

const QUOTE = /'/g;
const BACKSLASH = /\\/g;
/** A string as an SQL literal: the output of pg's escapeLiteral, with regex replaces. */
function sqlString(s: string): string {
  const quoted = `'${s.replace(QUOTE, "''")}'`;
  return s.includes('\\') ? ` E${quoted.replace(BACKSLASH, '\\\\')}` : quoted;
}
const text = (v: string | null | undefined) => (v === null || v === undefined ? 'NULL' : sqlString(v));
const jsonb = (v: unknown) => (v === null || v === undefined ? 'NULL' : sqlString(JSON.stringify(v)));
const textArray = (vs: readonly string[]) =>
  vs.length === 0 ? `'{}'::text[]` : `ARRAY[${vs.map(sqlString).join(',')}]::text[]`;
const int = (n: number) => {
  if (!Number.isFinite(n)) throw new Error(`not a number: ${n}`);
  return String(n);
};
const bool = (b: boolean) => (b ? 'TRUE' : 'FALSE');
const literal = (v: unknown) =>
  Array.isArray(v) ? textArray(v as string[]) : typeof v === 'boolean' ? bool(v) : text(v as string);
const exec = (name: string, args: string[]) => `EXECUTE ${name}(${args.join(', ')})`;

/** Strings cannot carry NUL characters into SQL text (nor into text/jsonb columns). */
function assertNoNul(sql: string): string {
  if (sql.includes('\u0000')) throw new Error('enrichment output contains a NUL character');
  return sql;
}

/**
 * The write transaction on one pooled connection, in two round trips (a first use of the connection
 * adds one to prepare the statements): `BEGIN; EXECUTE lock` then `EXECUTE write; [EXECUTE fan-out;]
 * COMMIT`. The interactive Prisma transaction it replaces needed ten and more (docs/performance.md).
 */
async function writeEnrichment(
  deps: WorkerDeps,
  asset: JobRead,
  job: EnrichmentJob,
  result: EnrichmentResult,
  threatStamps: Map<string, string>,
  now: Date,
) {
  const client: PoolClient = await deps.pool.connect();
  let began = false;
  let broken: Error | undefined;
  try {
    if (!preparedOn.has(client)) {
      await client.query(PREPARE_ALL);
      preparedOn.add(client);
    }
    // the CVE ids of the rule findings (threat_match findings excluded, as in the shared rule)
    const cveIds = [
      ...new Set(result.findings.filter((f) => f.rule_id !== THREAT_MATCH_RULE_ID).flatMap((f) => f.cve_ids)),
    ].sort();
    const lock = lockSql({
      livemode: job.livemode,
      fingerprint: job.fingerprint,
      asset_type: asset.asset_type,
      cve_ids: cveIds,
    });
    const lockName = cveIds.length > 0 ? 'ew_lock_cve' : 'ew_lock_fp';
    began = true;
    const first = (await client.query(
      assertNoNul(`BEGIN;\n${exec(lockName, lock.values.map(literal))}`),
    )) as unknown as QueryResult[];
    const current = first[1]!.rows[0] as LockedRow | undefined;
    if (!current) throw new Error(`asset ${job.fingerprint} disappeared during enrichment`);

    // every version is kept; a new one only when the BOM's content changed
    const newBom = current.content_hash !== result.aibom.content_hash;
    const bomVersion = newBom ? (current.bom_version ?? 0) + 1 : current.bom_version!;
    const bomId = newBom ? newId(ID_PREFIXES.aibom) : current.bom_id!;
    // newer content arrived while we computed: keep the result (it is the last good one) but leave the
    // asset waiting for the job that carries the newer digest
    const superseded = current.latest_digest !== job.digest;
    // A threat matching the asset was created or changed while we analysed (the analysis ran without
    // the row lock, on the threats read before it). The threat's own re-enrichment may not reach this
    // asset (it matches CVE ids on stored findings, and ours are not stored yet) or may already have
    // run: store our result as the last good one, leave the asset stale, and queue one more job (outbox
    // row, same transaction) that analyses again with the threats as they are now.
    const threatsChanged = (current.threat_stamp ?? '') !== appliedThreatStamp(result, threatStamps);
    const status = superseded
      ? current.enrichment_status === 'pending'
        ? 'pending'
        : 'stale'
      : threatsChanged
        ? 'stale'
        : 'enriched';
    const findings = result.findings.map((f) => ({
      id: newId(ID_PREFIXES.finding),
      rule_id: f.rule_id,
      title: f.title,
      description: f.description,
      severity: f.severity,
      category: f.category,
      confidence: f.confidence,
      evidence: f.evidence,
      capabilities: f.capabilities,
      attack_techniques: f.attack_techniques,
      cve_ids: f.cve_ids,
      threat_ids: f.threat_ids,
      remediation: f.remediation,
      score_contribution: f.score_contribution,
      score_breakdown: { weight: f.weight, contribution: f.score_contribution },
      benchmark: f.benchmark ?? null,
    }));

    const rendered = {
      object: 'asset',
      fingerprint: job.fingerprint,
      asset_type: asset.asset_type,
      enrichment_status: status,
      intrinsic_risk_score: result.intrinsic_risk_score,
      intrinsic_risk_severity: result.intrinsic_risk_severity,
      publisher: result.publisher,
      aibom: bomId,
      bom_version: bomVersion,
      enriched_at: Math.floor(now.getTime() / 1000),
    };
    const events: NewEvent[] = [
      { type: 'asset.enriched', livemode: job.livemode, fingerprint: job.fingerprint, object: rendered },
    ];
    const scoreChanged = asset.intrinsic_risk_score !== result.intrinsic_risk_score;
    const severityChanged = asset.intrinsic_risk_severity !== result.intrinsic_risk_severity;
    if (asset.intrinsic_risk_score !== null && (scoreChanged || severityChanged)) {
      events.push({
        type: 'asset.risk_changed',
        livemode: job.livemode,
        fingerprint: job.fingerprint,
        object: rendered,
        extra: {
          previous_attributes: {
            intrinsic_risk_score: asset.intrinsic_risk_score,
            intrinsic_risk_severity: asset.intrinsic_risk_severity,
          },
        },
      });
    }
    const eventRows = events.map((e) => ({
      id: newId(ID_PREFIXES.event),
      type: e.type,
      data: { object: e.object, ...(e.extra ?? {}) },
    }));

    const second = [
      exec('ew_write', [
        text(job.fingerprint),
        text(job.digest),
        `'${now.toISOString()}'`,
        jsonb(findings),
        text(bomId),
        int(bomVersion),
        text(result.aibom.content_hash),
        text(result.aibom.spdx_version),
        jsonb(result.aibom.spdx),
        jsonb(result.aibom.components),
        jsonb(result.aibom.lineage),
        jsonb(result.aibom.cyclonedx),
        bool(newBom),
        int(result.intrinsic_risk_score),
        text(result.intrinsic_risk_severity),
        jsonb(result.publisher_trust),
        jsonb(result.benchmark_summary),
        jsonb(result.score_breakdown),
        text(result.normalized_name),
        text(result.publisher),
        text(result.ecosystem),
        text(status),
        jsonb(eventRows),
        bool(job.livemode),
      ]),
    ];
    if (current.has_endpoints) second.push(exec('ew_fanout', [textArray(eventRows.map((e) => e.id))]));
    if (threatsChanged && !superseded) {
      const payload = {
        fingerprint: job.fingerprint,
        digest: job.digest,
        reason: `threats_changed:${sha256Hex(current.threat_stamp ?? '').slice(0, 16)}`,
      };
      second.push(`INSERT INTO outbox (kind, payload) VALUES ('enrichment', ${jsonb(payload)})`);
    }
    second.push('COMMIT');
    const out = (await client.query(assertNoNul(second.join(';\n')))) as unknown as QueryResult[];
    began = false;
    const deliveries: FannedOutDelivery[] = current.has_endpoints
      ? (out[1]!.rows as Array<{ delivery_id: string; outbox_id: string }>).map((r) => ({
          delivery_id: r.delivery_id,
          outbox_id: BigInt(r.outbox_id),
        }))
      : [];
    return { bomVersion, deliveries };
  } catch (err) {
    if (began) {
      await client.query('ROLLBACK').catch((e: Error) => {
        broken = e;
      });
    }
    throw err;
  } finally {
    // a connection that could not even roll back is discarded, not returned to the pool
    client.release(broken);
  }
}

/**
 * Called when a job has used its last attempt: the asset is marked failed with the reason. The reason
 * is an error message that may quote content (a driver error echoing a value), and the asset is shared:
 * it is redacted like everything else derived from a signal (docs/security.md).
 */
export async function markEnrichmentFailed(deps: WorkerDeps, job: EnrichmentJob, reason: string): Promise<void> {
  const deliveries = await deps.prisma.$transaction(async (tx) => {
    const updated = await tx.asset.updateMany({
      where: { livemode: job.livemode, fingerprint: job.fingerprint, latest_digest: job.digest },
      data: { enrichment_status: 'failed', enrichment_error: redactText(reason).slice(0, 1000) },
    });
    if (updated.count === 0) return [];
    const { deliveries } = await recordEventsWithDeliveries(tx, [
      {
        type: 'asset.enrichment_failed',
        livemode: job.livemode,
        fingerprint: job.fingerprint,
        object: {
          object: 'asset',
          fingerprint: job.fingerprint,
          enrichment_status: 'failed',
          enrichment_error: redactText(reason).slice(0, 1000),
        },
      },
    ]);
    return deliveries;
  });
  await enqueueDeliveries(deps.prisma, deps.producer, deliveries);
}
