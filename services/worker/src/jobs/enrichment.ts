import { performance } from 'node:perf_hooks';
import { enqueueDeliveries, recordEventsWithDeliveries } from '@risk/common/events';
import { withSpan } from '@risk/common/observability';
import { type EnrichmentJob } from '@risk/common/queue';
import { type AssetType, type EnrichmentInput, type EnrichmentResult, type ToolBaseline } from '@risk/enrichment';
import { redactText } from '@risk/redaction';
import { lookupAdvisories, NO_ADVISORIES, withFeedCveThreats } from '../advisories/lookup';
import type { CandidateThreats, JobRead } from '@risk/db';
import { analysisPoolFor, testBusyMs } from '../analysis/pool';
import type { WorkerDeps } from '../deps';
import { attachArtifactVerdicts, recheckArtifactVerdicts } from './artifact-verdicts';
import { readJob, writeJob } from './enrichment-batches';

export type EnrichmentOutcome =
  | { outcome: 'enriched'; fingerprint: string; score: number; bom_version: number; timings: EnrichmentTimings }
  | {
      outcome: 'skipped';
      fingerprint: string;
      reason: 'asset_missing' | 'superseded' | 'up_to_date' | 'signal_missing';
    };

/**
 * Where a job's time goes (the bench reports the shares): read_ms = the job's reads (its row, signal and candidate
 * threats, then the advisory look-up), engine_ms = the engine in the analysis thread pool (one task, or two when the
 * database holds advisories for the asset's packages; queueing for a thread included), write_ms = the job's wait for
 * its write transaction (shared with the concurrent jobs' writes, enrichment-batches.ts; queueing for a batch
 * included).
 */
export interface EnrichmentTimings {
  read_ms: number;
  engine_ms: number;
  write_ms: number;
  /** the advisory look-up inside read_ms: one query, batched with concurrent jobs' (docs/advisories.md) */
  advisories_ms: number;
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
  const analysed = await analyseAsset(deps, job);
  return 'outcome' in analysed ? analysed : writeAnalysed(deps, analysed);
}

/** A job's analysis, ready for its write: everything analyseAsset hands writeAnalysed. */
export interface AnalysedAsset {
  job: EnrichmentJob;
  asset: JobRead;
  inputs: EnrichmentInput[];
  result: EnrichmentResult;
  stamps: Map<string, string>;
  now: Date;
  timings: Omit<EnrichmentTimings, 'write_ms'>;
}

/**
 * The job's first step: its reads and the engine, no row lock held. Its own export so a test can hold a job between
 * its analysis and its write (services/worker/test/out-of-date-writer.test.ts).
 */
export async function analyseAsset(
  deps: WorkerDeps,
  job: EnrichmentJob,
): Promise<AnalysedAsset | Extract<EnrichmentOutcome, { outcome: 'skipped' }>> {
  const t0 = performance.now();
  // the DB-heavy steps are spans when tracing is on (docs/observability.md "Tracing"); off, withSpan is a plain call
  const asset = await withSpan('enrichment read job', {}, () => readJob(deps, job));
  if (!asset) return { outcome: 'skipped', fingerprint: job.fingerprint, reason: 'asset_missing' };
  if (asset.latest_digest !== job.digest)
    return { outcome: 'skipped', fingerprint: job.fingerprint, reason: 'superseded' };
  if (asset.enrichment_status === 'enriched' && asset.enriched_digest === job.digest) {
    return { outcome: 'skipped', fingerprint: job.fingerprint, reason: 'up_to_date' };
  }
  if (!asset.observations || asset.observations.length === 0)
    return { outcome: 'skipped', fingerprint: job.fingerprint, reason: 'signal_missing' };
  const inputs = asset.observations.map((o): EnrichmentInput => ({
    ...o,
    fingerprint: job.fingerprint,
    asset_type: o.asset_type as AssetType,
  }));
  // the platform's verdicts for the hashes the observations name, in one query (docs/artifacts.md "Judgement")
  await withSpan('enrichment read artifact verdicts', {}, () => attachArtifactVerdicts(deps, job, inputs));
  const t1 = performance.now();

  // The whole engine runs in the analysis thread pool, under the per-job deadline, before any
  // transaction begins: no row lock is held while analysing (docs/security.md, "Analysis under a
  // budget"). The candidate threats came with the job read, without the lock (its place at the start of the job: a
  // threat created after it is caught by the writer's check). A threat created or changed while
  // the analysis runs is not lost: creating/changing a threat marks its matching assets stale and
  // re-enqueues them (services/public-api/src/domain/threats/reenrich.ts), and the write below
  // compares the matching threats under the lock with the ones applied and, when they differ, leaves
  // the asset stale with one more job queued (writeEnrichment in @risk/db). The engine combines every org's latest
  // observation (docs/security.md, "Modes and shared observations").
  const now = new Date();
  const pool = analysisPoolFor(deps.config);
  const busyMs = testBusyMs(deps.config, inputs.map((i) => i.raw_manifest ?? '').join('\n'));
  const context = (threats: CandidateThreats['threats']) => ({
    threats,
    publisher: {
      org_count: asset.org_count ?? 0,
      signal_count: asset.org_signal_count ?? asset.signal_count,
      first_seen: (asset.org_first_seen ?? asset.first_seen).toISOString(),
    },
    now: now.toISOString(),
    // the first definition seen of each MCP tool (docs/drift.md), read with the job in the same batch: rows the writer
    // stored from the engine's own ToolFingerprint values (@risk/db declares them without the engine's types)
    tool_baseline: asset.tool_baseline as ToolBaseline | null,
  });
  const candidates = asset.candidates!;
  // One thread hop computes the asset's packages and the enrichment on the engine's own advisories
  // (docs/advisories.md "Enrichment"); the look-up of those packages follows, batched with concurrent jobs'.
  const first = await withSpan('enrichment analyze', {}, () =>
    pool.run('packages_and_enrich', [inputs, context(candidates.threats)], { busyMs }),
  );
  const t2a = performance.now();
  // manifests that name no package, for an asset with none recorded (model cards, configs: most assets), have nothing
  // to look up and nothing to replace; the look-up still runs when packages are recorded, to remove them
  const advisories =
    first.packages.length === 0 && !asset.has_packages
      ? NO_ADVISORIES
      : await withSpan('enrichment read advisories', {}, () =>
          lookupAdvisories(deps, { livemode: job.livemode, fingerprint: job.fingerprint, packages: first.packages }),
        );
  let result = first.result;
  let stamps = candidates.stamps;
  let analyzeMs = t2a - t1;
  if (advisories.from_database > 0) {
    // the database holds records for these packages: the engine runs again on them; CVE ids only a loaded feed
    // knows get one more threat read, for those ids only
    for (const i of inputs) i.advisories = advisories.advisories;
    const withFeed = await withFeedCveThreats(deps, {
      job,
      assetType: asset.asset_type,
      base: candidates,
      cveIds: advisories.cve_ids,
    });
    stamps = withFeed.stamps;
    const t = performance.now();
    result = await withSpan('enrichment analyze', {}, () =>
      pool.run('enrich', [inputs, context(withFeed.threats)], { busyMs }),
    );
    analyzeMs += performance.now() - t;
  }
  const t2 = performance.now();
  const readMs = t2 - t0 - analyzeMs;
  if (deps.config.ENRICHMENT_TEST_DELAY_MS > 0) {
    await new Promise((r) => setTimeout(r, deps.config.ENRICHMENT_TEST_DELAY_MS));
  }
  return {
    job,
    asset,
    inputs,
    result,
    stamps,
    now,
    timings: { read_ms: readMs, engine_ms: analyzeMs, advisories_ms: advisories.ms },
  };
}

/** The job's second step: its write transaction, then what follows the commit. */
export async function writeAnalysed(deps: WorkerDeps, analysed: AnalysedAsset): Promise<EnrichmentOutcome> {
  const { job, asset, inputs, result, stamps, now } = analysed;
  const t3 = performance.now();
  // THE writer of an enrichment result (@risk/db enrichment store, also what the API's tests use), in one
  // transaction with the concurrent jobs' writes (a MicroBatch; a failed batch writes each job alone)
  const { status, bomVersion, deliveries } = await withSpan('enrichment write', {}, () =>
    writeJob(deps, { job, asset, result, threatStamps: stamps, now }),
  );
  const t4 = performance.now();
  // an out-of-date job whose result the writer refused: a newer one is stored or on its way (docs/reliability.md
  // "Out-of-date writers"); nothing was written, so nothing follows
  if (status === 'superseded') return { outcome: 'skipped', fingerprint: job.fingerprint, reason: 'superseded' };
  // after commit: hand the webhook deliveries to the queue (the outbox relay covers a failure)
  await enqueueDeliveries(deps, deliveries);
  // a verdict made while this job ran is not lost (docs/artifacts.md "A verdict that arrives later")
  await recheckArtifactVerdicts(deps, inputs);
  return {
    outcome: 'enriched',
    fingerprint: job.fingerprint,
    score: result.intrinsic_risk_score,
    bom_version: bomVersion,
    timings: { ...analysed.timings, write_ms: t4 - t3 },
  };
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
  await enqueueDeliveries(deps, deliveries);
}
