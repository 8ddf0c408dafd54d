import { invariantViolations } from '@risk/common/observability';
import { JOBS, type FirewallSyncJob } from '@risk/common/queue';
import type { PoolClient } from 'pg';
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

/** pg_try_advisory_xact_lock key: one pass at a time across every worker replica and the CLI */
const LOCK_KEY = 0x72697369; // 'risi'
/** candidates per pass; the next pass takes the rest */
export const INVARIANT_BATCH = 500;
/** work younger than this is left alone: the API's post-commit enqueue and the relay may still be on it */
const GRACE = `interval '1 minute'`;

interface AssetCandidate {
  livemode: boolean;
  fingerprint: string;
  latest_digest: string;
  outbox_id: string | null;
}

interface AssignmentCandidate {
  id: string;
  action: 'apply' | 'remove';
  version: number;
}

/**
 * An asset waits for enrichment when it is `pending` or `stale` (docs/reliability.md "Enrichment jobs";
 * `failed` is a resting state left by the next signal). It is queued when an outbox row for its latest
 * digest waits, or when the job of the newest relayed row for that digest is still in BullMQ unfinished.
 * The outbox is scanned once (hash join against the bounded candidate set).
 */
const ASSET_CANDIDATES_SQL = `
  WITH c AS MATERIALIZED (
    SELECT a.livemode, a.fingerprint, a.latest_digest FROM assets a
     WHERE a.enrichment_status IN ('pending', 'stale') AND a.updated < now() - ${GRACE}
       AND NOT EXISTS (SELECT 1 FROM outbox o
                        WHERE o.kind = 'enrichment' AND o.processed_at IS NULL AND o.dead_lettered_at IS NULL
                          AND o.payload->>'fingerprint' = a.fingerprint
                          AND COALESCE((o.payload->>'livemode')::boolean, true) = a.livemode
                          AND o.payload->>'digest' = a.latest_digest)
     ORDER BY a.livemode, a.fingerprint LIMIT $1
  )
  SELECT c.livemode, c.fingerprint, c.latest_digest, max(o.id)::text AS outbox_id
    FROM c LEFT JOIN outbox o
      ON o.kind = 'enrichment' AND o.processed_at IS NOT NULL
     AND o.payload->>'fingerprint' = c.fingerprint
     AND COALESCE((o.payload->>'livemode')::boolean, true) = c.livemode
     AND o.payload->>'digest' = c.latest_digest
   GROUP BY c.livemode, c.fingerprint, c.latest_digest`;

/**
 * An assignment waits for a push while `pending` (apply its target version) or `removing` (remove it);
 * it is queued when a firewall_sync outbox row for that action and version waits, or its job is in BullMQ
 * unfinished. The sync logic itself is the firewall-sync job's (services/worker/src/jobs/firewall-sync.ts).
 */
const ASSIGNMENT_CANDIDATES_SQL = `
  SELECT a.id, CASE a.sync_status WHEN 'removing' THEN 'remove' ELSE 'apply' END AS action,
         a.target_version AS version
    FROM policy_assignments a
   WHERE a.sync_status IN ('pending', 'removing') AND a.updated < now() - ${GRACE}
     AND NOT EXISTS (SELECT 1 FROM outbox o
                      WHERE o.kind = 'firewall_sync' AND o.processed_at IS NULL AND o.dead_lettered_at IS NULL
                        AND o.payload->>'assignment_id' = a.id)
   ORDER BY a.id LIMIT $1`;

/**
 * Failures that say the firewall could not be reached (connector/errors.ts reasons; `last_error` is
 * `<reason>: <message>`): they heal by themselves once the device is back. A refusal by the device (bad
 * credentials, an untranslatable policy, a vendor error) waits for a person's change instead.
 */
export const UNREACHABLE_REASONS = ['dns', 'tcp_refused', 'network_unreachable', 'timeout'];
/**
 * Cool-down of a `failed` assignment before the pass re-queues it: as long as it has been failing (since its
 * last sync, or its creation), at least FAILED_RETRY_MIN and at most FAILED_RETRY_MAX. Each re-queued push
 * that fails again moves `updated`, so the waits roughly double (5 min, 8, 16, ...) up to one an hour.
 */
export const FAILED_RETRY_MIN = `interval '5 minutes'`;
export const FAILED_RETRY_MAX = `interval '1 hour'`;

const FAILED_ASSIGNMENTS_SQL = `
  SELECT a.id, 'apply' AS action, a.target_version AS version
    FROM policy_assignments a
   WHERE a.sync_status = 'failed'
     AND split_part(a.last_error, ':', 1) = ANY($2::text[])
     AND a.updated < now() - LEAST(${FAILED_RETRY_MAX},
           GREATEST(${FAILED_RETRY_MIN}, a.updated - COALESCE(a.last_synced_at, a.created)))
     AND NOT EXISTS (SELECT 1 FROM outbox o
                      WHERE o.kind = 'firewall_sync' AND o.processed_at IS NULL AND o.dead_lettered_at IS NULL
                        AND o.payload->>'assignment_id' = a.id)
   ORDER BY a.id LIMIT $1`;

const OUTBOX_SQL = `
  SELECT count(*) FILTER (WHERE dead_lettered_at IS NULL AND created < now() - ${GRACE})::int AS stuck,
         COALESCE(EXTRACT(EPOCH FROM now() - min(created) FILTER (WHERE dead_lettered_at IS NULL)), 0)::float8 AS oldest,
         count(*) FILTER (WHERE dead_lettered_at IS NOT NULL)::int AS dead
    FROM outbox WHERE processed_at IS NULL`;

const DEAD_IDS_SQL = `SELECT id::text AS id FROM outbox
  WHERE processed_at IS NULL AND dead_lettered_at IS NOT NULL ORDER BY id LIMIT 100`;

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

/** `pg_try_advisory_xact_lock` in its own transaction: two replicas never check and repair at once. */
export async function checkInvariants(
  deps: WorkerDeps,
  opts: { repair: boolean; batch?: number },
): Promise<InvariantReport> {
  const batch = opts.batch ?? INVARIANT_BATCH;
  const client = await deps.pool.connect();
  try {
    await client.query('BEGIN');
    const { rows: lock } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [
      LOCK_KEY,
    ]);
    if (!lock[0]?.ok) {
      await client.query('COMMIT');
      return emptyReport(false);
    }
    const report = await runPass(deps, client, { repair: opts.repair, batch });
    await client.query('COMMIT');
    exportCounts(report);
    return report;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

async function runPass(deps: WorkerDeps, client: PoolClient, pass: { repair: boolean; batch: number }) {
  const { repair, batch } = pass;
  const report = emptyReport(true);
  report.repaired = repair;

  const { rows: assets } = await client.query<AssetCandidate>(ASSET_CANDIDATES_SQL, [batch]);
  const assetJobs = assets.filter((a) => a.outbox_id !== null).map((a) => JOBS.enrichment.jobId(a.outbox_id!));
  const openAssetJobs = await unfinishedJobs(deps, JOBS.enrichment.queue, assetJobs);
  const lostAssets = assets.filter(
    (a) => a.outbox_id === null || !openAssetJobs.has(JOBS.enrichment.jobId(a.outbox_id)),
  );
  report.assets_unqueued = lostAssets.map((a) => `${a.livemode ? 'live' : 'test'}:${a.fingerprint}`);

  const { rows: assignments } = await client.query<AssignmentCandidate>(ASSIGNMENT_CANDIDATES_SQL, [batch]);
  const syncJobId = (a: AssignmentCandidate) => JOBS.firewallSync.jobId({ assignment_id: a.id, ...a });
  const openSyncJobs = await unfinishedJobs(deps, JOBS.firewallSync.queue, assignments.map(syncJobId));
  const lostAssignments = assignments.filter((a) => !openSyncJobs.has(syncJobId(a)));
  report.assignments_unqueued = lostAssignments.map((a) => a.id);

  // `failed` is leavable without a person when the device was only unreachable: its retries ran out during
  // an outage longer than their window, so the target version would otherwise never reach it
  const { rows: failed } = await client.query<AssignmentCandidate>(FAILED_ASSIGNMENTS_SQL, [
    batch,
    UNREACHABLE_REASONS,
  ]);
  const openFailedJobs = await unfinishedJobs(deps, JOBS.firewallSync.queue, failed.map(syncJobId));
  const retryFailed = failed.filter((a) => !openFailedJobs.has(syncJobId(a)));
  report.assignments_failed_retried = retryFailed.map((a) => a.id);

  const { rows: outbox } = await client.query<{ stuck: number; oldest: number; dead: number }>(OUTBOX_SQL);
  report.outbox_stuck = outbox[0]?.stuck ?? 0;
  report.outbox_oldest_seconds = Math.max(0, Math.round(outbox[0]?.oldest ?? 0));
  report.outbox_dead_lettered = outbox[0]?.dead ?? 0;
  if (report.outbox_dead_lettered > 0) {
    const { rows } = await client.query<{ id: string }>(DEAD_IDS_SQL);
    report.outbox_dead_lettered_ids = rows.map((r) => r.id);
  }

  if (repair && lostAssets.length) {
    // through the outbox like every other enrichment request: the relay makes one job per row, and the
    // job is a no-op if the asset got enriched in the meantime (docs/reliability.md "Enrichment jobs")
    await client.query(
      `INSERT INTO outbox (kind, payload)
       SELECT 'enrichment', jsonb_build_object('livemode', l, 'fingerprint', f, 'digest', d, 'reason', 'doctor')
         FROM unnest($1::boolean[], $2::text[], $3::text[]) AS x(l, f, d)`,
      [lostAssets.map((a) => a.livemode), lostAssets.map((a) => a.fingerprint), lostAssets.map((a) => a.latest_digest)],
    );
  }
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
