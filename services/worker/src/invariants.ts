import { invariantViolations } from '@risk/common/observability';
import { JOBS, type FirewallSyncJob } from '@risk/common/queue';
import { withInvariantLock, type AssignmentCandidate, type InvariantReads } from '@risk/db';
import type { WorkerDeps } from './deps';

/**
 * The system checking its own promises (docs/reliability.md "Invariants"): work that should be waiting
 * somewhere (an outbox row, a queued job) and is not. One pass reads each kind of fallen-through work in
 * one bounded, set-based statement, checks the candidates' jobs in Redis in one pipeline, and, when asked,
 * repairs them. The maintenance schedule runs it with repair on; `pnpm cli doctor` reports only unless
 * `--repair`.
 */
export interface InvariantReport {
  /** the pass ran (false: another worker holds the advisory lock and is running it now) */
  ran: boolean;
  repaired: boolean;
  /** assets whose latest digest is neither enriched nor queued: `live|test:<fingerprint>` */
  assets_unqueued: string[];
  /** assignments whose target version is neither synced nor queued */
  assignments_unqueued: string[];
  /**
   * `failed` assignments whose last error says the firewall was unreachable, past their cool-down and with
   * no job queued: re-queued by a repairing pass (docs/reliability.md "Assignment sync states")
   */
  assignments_failed_retried: string[];
  /** outbox rows waiting for more than a minute */
  outbox_stuck: number;
  outbox_oldest_seconds: number;
  outbox_dead_lettered: number;
  /** the first dead-lettered row ids (oldest first), to look at with their last_error */
  outbox_dead_lettered_ids: string[];
}

/** candidates per pass; the next pass takes the rest */
export const INVARIANT_BATCH = 500;
/**
 * Failures that say the firewall could not be reached (connector/errors.ts reasons; `last_error` is
 * `<reason>: <message>`): they heal by themselves once the device is back. A refusal by the device (bad
 * credentials, an untranslatable policy, a vendor error) waits for a person's change instead.
 */
export const UNREACHABLE_REASONS = ['dns', 'tcp_refused', 'network_unreachable', 'timeout'];
/**
 * Which of these BullMQ jobs are still to run (waiting, delayed, active): the job's hash exists and has
 * no finishedOn. One pipeline for all of them; a kept completed or failed job, or none, is not queued.
 */
async function unfinishedJobs(deps: WorkerDeps, queue: string, jobIds: string[]): Promise<Set<string>> {
  if (jobIds.length === 0) return new Set();
  const prefix = `${deps.config.REDIS_PREFIX}:${queue}:`;
  const pipeline = deps.producer.connection.pipeline();
  for (const id of jobIds) pipeline.hmget(`${prefix}${id}`, 'timestamp', 'finishedOn');
  const results = (await pipeline.exec()) ?? [];
  const open = new Set<string>();
  results.forEach(([err, value], i) => {
    if (err) throw err;
    const [timestamp, finishedOn] = value as [string | null, string | null];
    if (timestamp !== null && finishedOn === null) open.add(jobIds[i]!);
  });
  return open;
}

/** In a transaction holding the invariants' advisory lock (withInvariantLock): two replicas never check and repair at once. */
export async function checkInvariants(
  deps: WorkerDeps,
  opts: { repair: boolean; batch?: number },
): Promise<InvariantReport> {
  const batch = opts.batch ?? INVARIANT_BATCH;
  const report = await withInvariantLock(deps.pool, (reads) => runPass(deps, reads, { repair: opts.repair, batch }));
  if (!report) return emptyReport(false);
  exportCounts(report);
  return report;
}

async function runPass(deps: WorkerDeps, reads: InvariantReads, pass: { repair: boolean; batch: number }) {
  const { repair, batch } = pass;
  const report = emptyReport(true);
  report.repaired = repair;

  const assets = await reads.unqueuedAssets(batch);
  const assetJobs = assets.filter((a) => a.outbox_id !== null).map((a) => JOBS.enrichment.jobId(a.outbox_id!));
  const openAssetJobs = await unfinishedJobs(deps, JOBS.enrichment.queue, assetJobs);
  const lostAssets = assets.filter(
    (a) => a.outbox_id === null || !openAssetJobs.has(JOBS.enrichment.jobId(a.outbox_id)),
  );
  report.assets_unqueued = lostAssets.map((a) => `${a.livemode ? 'live' : 'test'}:${a.fingerprint}`);

  const assignments = await reads.unqueuedAssignments(batch);
  const syncJobId = (a: AssignmentCandidate) => JOBS.firewallSync.jobId({ assignment_id: a.id, ...a });
  const openSyncJobs = await unfinishedJobs(deps, JOBS.firewallSync.queue, assignments.map(syncJobId));
  const lostAssignments = assignments.filter((a) => !openSyncJobs.has(syncJobId(a)));
  report.assignments_unqueued = lostAssignments.map((a) => a.id);

  // `failed` is leavable without a person when the device was only unreachable: its retries ran out during
  // an outage longer than their window, so the target version would otherwise never reach it
  const failed = await reads.failedAssignments(batch, UNREACHABLE_REASONS);
  const openFailedJobs = await unfinishedJobs(deps, JOBS.firewallSync.queue, failed.map(syncJobId));
  const retryFailed = failed.filter((a) => !openFailedJobs.has(syncJobId(a)));
  report.assignments_failed_retried = retryFailed.map((a) => a.id);

  const outbox = await reads.outboxCounts();
  report.outbox_stuck = outbox.stuck;
  report.outbox_oldest_seconds = Math.max(0, Math.round(outbox.oldest));
  report.outbox_dead_lettered = outbox.dead;
  if (report.outbox_dead_lettered > 0) report.outbox_dead_lettered_ids = await reads.deadLetteredIds();

  // through the outbox like every other enrichment request (the store's requeueEnrichments)
  if (repair && lostAssets.length) await reads.requeueEnrichments(lostAssets);
  const requeue = [...lostAssignments, ...retryFailed];
  if (repair && requeue.length) {
    // a finished job kept under the same id would make the add a silent no-op: remove it first. Two
    // replicas never get here at once (the pass's advisory lock), and the push itself re-reads the target
    // under the assignment's lock and records by compare-and-set (packages/firewalls/src/sync)
    const queue = deps.producer.queue(JOBS.firewallSync.queue);
    await Promise.all(requeue.map((a) => queue.remove(syncJobId(a))));
    const jobs: FirewallSyncJob[] = requeue.map((a) => ({
      assignment_id: a.id,
      action: a.action,
      version: a.version,
    }));
    await deps.producer.enqueueFirewallSync(jobs, 5000);
  }
  return report;
}

function emptyReport(ran: boolean): InvariantReport {
  return {
    ran,
    repaired: false,
    assets_unqueued: [],
    assignments_unqueued: [],
    assignments_failed_retried: [],
    outbox_stuck: 0,
    outbox_oldest_seconds: 0,
    outbox_dead_lettered: 0,
    outbox_dead_lettered_ids: [],
  };
}

/** the counts as found (before repair): a non-zero value means work fell through since the last pass */
function exportCounts(r: InvariantReport): void {
  invariantViolations.set({ kind: 'asset_unqueued' }, r.assets_unqueued.length);
  invariantViolations.set({ kind: 'assignment_unqueued' }, r.assignments_unqueued.length);
  invariantViolations.set({ kind: 'assignment_failed_unreachable' }, r.assignments_failed_retried.length);
  invariantViolations.set({ kind: 'outbox_stuck' }, r.outbox_stuck);
  invariantViolations.set({ kind: 'outbox_dead_lettered' }, r.outbox_dead_lettered);
}
