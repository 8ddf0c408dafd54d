import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { ID_PREFIXES, newId } from '../ids';
import { assertNoNul, literal } from '../sql/literal';
import { CHOSEN_PLAN_SETTINGS, GENERIC_PLAN_SETTINGS, withPrepared } from '../sql/prepared';
import type {
  EnrichmentEventRow,
  EnrichmentEventsInput,
  PreviousEnrichment,
  StoredEnrichmentResult,
} from './enrichment-rows';
import type { EnrichmentJobKey, JobRead } from './enrichment-reads';
import { ENRICHMENT_WRITE_STATEMENTS as statements, lockSql } from './enrichment-statements';
import { ASSET_HISTORY_CAP, findingSnapshot } from './history-store';
import { TOOL_BASELINE_CAP } from './tool-baselines-store';
import { THREAT_MATCH_RULE_ID } from './threats-store';

/**
 * The enrichment store (docs/data-access.md "Stores"): THE writer of an enrichment result, used by the worker and
 * by the tests that need an enriched asset. What a job reads is in enrichment-reads.ts.
 */

interface LockedRow {
  latest_digest: string;
  enriched_digest: string | null;
  enrichment_status: string;
  bom_id: string | null;
  bom_version: number | null;
  content_hash: string | null;
  has_endpoints: boolean;
  threat_stamp: string | null;
  prev_findings: PreviousEnrichment['findings'];
  prev_components: PreviousEnrichment['components'];
  prev_lineage: unknown;
  prev_tools: PreviousEnrichment['tools'];
  has_tool_baseline: boolean;
}

export interface EnrichmentWrite<R extends StoredEnrichmentResult = StoredEnrichmentResult> {
  job: EnrichmentJobKey;
  /**
   * the asset as the job read it before the engine ran (its previous score is the events' previous state; its
   * enriched_digest is what an out-of-date write compares and sets, docs/reliability.md "Out-of-date writers")
   */
  asset: Pick<JobRead, 'asset_type' | 'intrinsic_risk_score' | 'intrinsic_risk_severity' | 'enriched_digest'>;
  result: R;
  /**
   * The events this write records, decided and rendered by the caller from the state the lock statement read (the
   * worker's jobs/enrichment-events.ts: docs/webhooks.md catalogue); the store only inserts and fans them out.
   */
  events: (input: EnrichmentEventsInput<R>) => EnrichmentEventRow[];
  /** the stamps of the candidate threats the analysis saw (readCandidateThreats) */
  threatStamps: Map<string, string>;
  now: Date;
}

export interface EnrichmentWritten {
  /** `superseded`: an out-of-date job's result, refused (nothing written; docs/reliability.md "Out-of-date writers") */
  status: 'enriched' | 'stale' | 'pending' | 'superseded';
  bomVersion: number;
  /** the webhook deliveries fanned out in the transaction, for the caller to enqueue after commit */
  deliveries: Array<{ delivery_id: string; outbox_id: bigint }>;
}

/** The stamp of the threats the analysis applied, as the lock statement spells it (ids in C order). */
function appliedThreatStamp(result: StoredEnrichmentResult, stamps: Map<string, string>): string {
  const ids = new Set(result.findings.filter((f) => f.rule_id === THREAT_MATCH_RULE_ID).flatMap((f) => f.threat_ids));
  return [...ids]
    .sort()
    .map((id) => stamps.get(id) ?? id)
    .join(',');
}

const { text, jsonb, int, bool, textArray, boolArray } = literal;

/** An asset's key in a batch: two writes of one asset never share a batch (the caller's MicroBatch keys). */
export function enrichmentWriteKey(job: Pick<EnrichmentJobKey, 'livemode' | 'fingerprint'>): string {
  return `${job.livemode ? 'live' : 'test'}:${job.fingerprint}`;
}

/** One input's lock statement (ew_lock_cve / ew_lock_fp), the first round trip's part of its write. */
function lockStatement(input: Omit<EnrichmentWrite, 'events'>): string {
  const { job, asset, result } = input;
  // the CVE ids of the rule findings (threat_match findings excluded, as in the shared rule)
  const cveIds = [
    ...new Set(result.findings.filter((f) => f.rule_id !== THREAT_MATCH_RULE_ID).flatMap((f) => f.cve_ids)),
  ].sort();
  const lock = lockSql({
    livemode: job.livemode,
    fingerprint: job.fingerprint,
    asset_type: asset.asset_type,
    cve_ids: cveIds,
    content_hash: result.aibom.content_hash,
  });
  const lockArgs = lock.values.map((v) =>
    Array.isArray(v) ? textArray(v as string[]) : typeof v === 'boolean' ? bool(v) : text(v as string),
  );
  return statements.execute(cveIds.length > 0 ? 'ew_lock_cve' : 'ew_lock_fp', lockArgs);
}

/** One input's part of the second round trip, planned from its locked row. */
interface WritePlan {
  status: EnrichmentWritten['status'];
  bomVersion: number;
  statements: string[];
  /** the index in `statements` of the fan-out statement (whose rows are the deliveries), when there is one */
  fanoutAt: number | undefined;
}

/**
 * What one input writes, given its row as the lock statement read it: the status, the AI-BOM version,
 * the events, and the statements (history, write, tools, fan-out, outbox) of the second round trip.
 */
function planWrite<R extends StoredEnrichmentResult>(input: EnrichmentWrite<R>, current: LockedRow): WritePlan {
  const { job, asset, result, threatStamps, now } = input;
  // Newer content arrived while we computed (docs/reliability.md "Out-of-date writers"). Our result is kept as the
  // last good one only while the asset still waits for the job of the newer digest (pending or stale) and nothing
  // was written since the job read the asset (compare-and-set on enriched_digest, under the row lock): then that
  // job has not written yet and will, after us, so the asset converges. Otherwise a newer result is already stored
  // (or the newer job failed): writing ours would overwrite it with older content and leave the asset stale with no
  // job left to run. Digests are chained (observationSetDigest), so an unchanged enriched_digest means no write.
  const superseded = current.latest_digest !== job.digest;
  if (
    superseded &&
    ((current.enrichment_status !== 'pending' && current.enrichment_status !== 'stale') ||
      current.enriched_digest !== asset.enriched_digest)
  )
    return { status: 'superseded', bomVersion: current.bom_version ?? 0, statements: [], fanoutAt: undefined };
  // every version is kept; a new one only when the BOM's content changed
  const newBom = current.content_hash !== result.aibom.content_hash;
  const bomVersion = newBom ? (current.bom_version ?? 0) + 1 : current.bom_version!;
  const bomId = newBom ? newId(ID_PREFIXES.aibom) : current.bom_id!;
  // A threat matching the asset was created or changed while we analysed (the analysis ran without
  // the row lock, on the threats read before it). The threat's own re-enrichment may not reach this
  // asset (it matches CVE ids on stored findings, and ours are not stored yet) or may already have
  // run: store our result as the last good one, leave the asset stale, and queue one more job (outbox
  // row, same transaction) that analyses again with the threats as they are now.
  const threatsChanged = (current.threat_stamp ?? '') !== appliedThreatStamp(result, threatStamps);
  // superseded: the status ingest gave the newer digest (pending or stale), which that digest's job settles
  const status = superseded
    ? (current.enrichment_status as 'pending' | 'stale')
    : threatsChanged
      ? 'stale'
      : 'enriched';
  const findings = findingRows(result);
  const eventRows = input.events({
    fingerprint: job.fingerprint,
    asset_type: asset.asset_type,
    status,
    result,
    bomId,
    bomVersion,
    newBom,
    findingIds: findings.map((f) => f.id),
    previous: {
      score: asset.intrinsic_risk_score,
      severity: asset.intrinsic_risk_severity,
      bom_version: current.bom_version,
      findings: current.prev_findings,
      components: current.prev_components,
      lineage: current.prev_lineage,
      tools: current.prev_tools,
      has_tool_baseline: current.has_tool_baseline,
    },
    now,
  });

  const out = [
    // history first: it diffs against the previous entry and needs nothing ew_write changes. On its generic plan
    // (docs/data-access.md "Generic plans"): left to choose, Postgres planned it anew on every execution
    ...GENERIC_PLAN_SETTINGS,
    statements.execute('ew_history', [
      text(newId(ID_PREFIXES.assetHistory)),
      bool(job.livemode),
      text(job.fingerprint),
      text(job.digest),
      `'${now.toISOString()}'`,
      int(result.intrinsic_risk_score),
      text(result.intrinsic_risk_severity),
      int(bomVersion),
      jsonb(findingSnapshot(result.findings)),
      int(ASSET_HISTORY_CAP),
    ]),
    ...CHOSEN_PLAN_SETTINGS,
    statements.execute('ew_write', [
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
  // the tool baselines (docs/drift.md): only for an asset that has or had tools
  if (result.tools.length > 0 || current.has_tool_baseline)
    out.push(
      statements.execute('ew_tools', [
        bool(job.livemode),
        text(job.fingerprint),
        jsonb(result.tools),
        `'${now.toISOString()}'`,
        int(TOOL_BASELINE_CAP),
      ]),
    );
  let fanoutAt: number | undefined;
  if (current.has_endpoints) {
    fanoutAt = out.length;
    out.push(statements.execute('ew_fanout', [textArray(eventRows.map((e) => e.id))]));
  }
  if (threatsChanged && !superseded) {
    const stampHash = createHash('sha256')
      .update(current.threat_stamp ?? '')
      .digest('hex');
    const payload = {
      fingerprint: job.fingerprint,
      digest: job.digest,
      reason: `threats_changed:${stampHash.slice(0, 16)}`,
    };
    out.push(`INSERT INTO outbox (kind, payload) VALUES ('enrichment', ${jsonb(payload)})`);
  }
  return { status, bomVersion, statements: out, fanoutAt };
}

/**
 * Writes the enrichment results of several assets (concurrent jobs, grouped by the worker's MicroBatch)
 * in ONE transaction on one pooled connection, in two round trips per batch (a first use of the
 * connection adds one to prepare the statements): `BEGIN; EXECUTE lock; …` (one lock per input) then
 * every input's `EXECUTE history; EXECUTE write; [EXECUTE tools;] [EXECUTE fan-out;] [outbox insert;]`
 * and `COMMIT` (docs/data-access.md "Micro-batches"). Per input, exactly as when written alone:
 * findings are replaced, a new AI-BOM version is inserted when its content changed, the asset's scores
 * and status are set and the events recorded, all in the job's mode; an out-of-date input may write nothing
 * (status `superseded`, planWrite). Results in input order.
 *
 * The rows are locked first in the database's `ORDER BY livemode, fingerprint` (ew_lock_all), so two batches — or
 * a batch and another writer of several assets (docs/reliability.md "Lock order") — never wait on each other in a
 * cycle. An asset may appear once per call (throws otherwise: the caller's batches are keyed by
 * asset). Any failure — an asset row gone, a deadlock, a constraint — rolls the whole batch back
 * (withPrepared's ROLLBACK); the worker then writes each of its jobs on its own.
 */
export async function writeEnrichments<R extends StoredEnrichmentResult>(
  db: Pick<Pool, 'connect'>,
  inputs: readonly EnrichmentWrite<R>[],
): Promise<EnrichmentWritten[]> {
  if (inputs.length === 0) return [];
  const seen = new Set<string>();
  for (const { job } of inputs) {
    const key = enrichmentWriteKey(job);
    if (seen.has(key)) throw new Error(`writeEnrichments: asset ${key} appears twice in one batch`);
    seen.add(key);
  }
  // BEGIN, then (several assets) every row lock in the database's order (ew_lock_all), then each input's lock read on
  // its generic plan (docs/data-access.md "Generic plans"; packages/db/test/lock-plan.test.ts); the second round trip
  // sets them again before each history statement and CHOSEN_PLAN_SETTINGS after it.
  const locks: string[] = [...GENERIC_PLAN_SETTINGS, ...inputs.map(lockStatement)];
  if (inputs.length > 1)
    locks.unshift(
      statements.execute('ew_lock_all', [
        boolArray(inputs.map((i) => i.job.livemode)),
        textArray(inputs.map((i) => i.job.fingerprint)),
      ]),
    );
  // the results before the first lock read: BEGIN's, the batch's row locks when there are several assets, the settings
  const firstLock = (inputs.length > 1 ? 2 : 1) + GENERIC_PLAN_SETTINGS.length;
  return withPrepared(db, statements, async (session) => {
    session.inTransaction = true;
    const first = await session.run(assertNoNul(`BEGIN;\n${locks.join(';\n')}`));
    const at: number[] = [];
    const second: string[] = [];
    const plans = inputs.map((input, i) => {
      const current = first[i + firstLock]!.rows[0] as LockedRow | undefined;
      if (!current) throw new Error(`asset ${input.job.fingerprint} disappeared during enrichment`);
      const plan = planWrite(input, current);
      at.push(second.length);
      second.push(...plan.statements);
      return plan;
    });
    second.push('COMMIT');
    const out = await session.run(assertNoNul(second.join(';\n')));
    session.inTransaction = false;
    return plans.map((plan, i) => ({
      status: plan.status,
      bomVersion: plan.bomVersion,
      deliveries:
        plan.fanoutAt === undefined
          ? []
          : (out[at[i]! + plan.fanoutAt]!.rows as Array<{ delivery_id: string; outbox_id: string }>).map((r) => ({
              delivery_id: r.delivery_id,
              outbox_id: BigInt(r.outbox_id),
            })),
    }));
  });
}

/** One asset's enrichment result, written alone: a batch of one of writeEnrichments (two round trips). */
export async function writeEnrichment<R extends StoredEnrichmentResult>(
  db: Pick<Pool, 'connect'>,
  input: EnrichmentWrite<R>,
): Promise<EnrichmentWritten> {
  return (await writeEnrichments(db, [input]))[0]!;
}

/** The findings as ew_write's jsonb recordset reads them. */
function findingRows(result: StoredEnrichmentResult) {
  return result.findings.map(findingRow);
}

/** One finding of an enrichment result as a `findings` row (a new id; the score breakdown from its weight). */
export function findingRow(f: StoredEnrichmentResult['findings'][number]) {
  return {
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
  };
}
