import { enqueueDeliveries, EVENT_RETENTION_DAYS } from '@risk/common/events';
import { IDEMPOTENCY_RETENTION_MS } from '@risk/common/config';
import {
  defaultPartitionRows,
  dropExpiredMonths,
  endConsoleSessions,
  ensureMonthPartitions,
  purgeIdempotencyKeys,
  purgeProcessedOutbox,
  staleExpiredEnrichments,
  staleShrunkObservations,
} from '@risk/db';
import type { WorkerDeps } from './deps';
import { checkInvariants } from './invariants';
import { expireTriage } from './triage-expiry';
import { artifactUpkeep, type ArtifactUpkeepResult } from './artifact-rescan';

export interface MaintenanceResult {
  staled: number;
  /** assets re-enriched because an org's observation expired (OBSERVATION_TTL_DAYS) */
  observations_expired: number;
  idempotency_keys_purged: number;
  /** events of the months dropped past EVENT_RETENTION_DAYS, and older ones in the DEFAULT partition */
  events_purged: number;
  /** the same for signals, when SIGNAL_RETENTION_DAYS is set */
  signals_purged: number;
  /**
   * the monthly partitions of signals and events (docs/scaling.md "Monthly partitions for signals and events"): months
   * created ahead, months dropped past retention, signal months kept because an observation still points into them
   */
  partitions: { created: string[]; dropped: string[]; kept: string[] };
  /** rows left in the DEFAULT partitions: 0 unless a month could not be created (logged as a warning) */
  default_partition_rows: { signals: number; events: number };
  outbox_purged: number;
  /** accepted_risk triage whose expiry passed, returned to open (docs/triage.md "Expiry") */
  triage_expired: number;
  /** console sessions that lapsed without being presented again, ended with their own credentials */
  console_sessions_ended: number;
  /** scans whose lease ran out; kept artifacts re-scanned by a new analyser version (artifact-rescan.ts) */
  artifacts: ArtifactUpkeepResult;
}

/**
 * Periodic upkeep, each step one set-based statement. A step that updates assets first locks them in
 * (livemode, fingerprint) order, the order signal ingest locks them in (ri_assets_lock): two writers that
 * lock in different orders deadlock, and the ingest then fails with a 500 (docs/reliability.md "Lock order").
 * - enriched assets older than ENRICHMENT_TTL_DAYS become stale and get an enrichment outbox row
 *   (reason `ttl:<day>`, so the job id differs from the original enrichment of the same digest);
 * - enriched assets whose observation set shrank because an org's observation passed
 *   OBSERVATION_TTL_DAYS since it was enriched become stale and get an outbox row (reason
 *   `observation_ttl:<day>`), so the expired observation stops counting (docs/security.md "Modes and
 *   shared observations");
 * - accepted_risk triage past its expires_at returns to open with a finding.triage_expired event
 *   (triage-expiry.ts; its deliveries are enqueued at once, the outbox relay covers a failure);
 * - console sessions past their 8 h or 30 min idle, or whose sign-in token or tenant no longer allows them, end
 *   and their own tenant token and API key are revoked (a session ends at once when it is presented, but one
 *   never presented again would keep live credentials until they expire: docs/security.md "Console sign-in and
 *   session credentials");
 * - idempotency keys older than 24 h and processed outbox rows older than a day are deleted;
 * - signals and events get their partitions for this month and the next three (and for any month whose rows reached
 *   the DEFAULT partition), and lose whole months past retention: events 30 days, signals SIGNAL_RETENTION_DAYS when
 *   set (docs/scaling.md "Monthly partitions for signals and events").
 */
export async function runMaintenance(deps: WorkerDeps, now = new Date()): Promise<MaintenanceResult> {
  const ttlCutoff = new Date(now.getTime() - deps.config.ENRICHMENT_TTL_DAYS * 86_400_000);
  const reason = `ttl:${now.toISOString().slice(0, 10)}`;
  const staled = await staleExpiredEnrichments(deps.pool, { cutoff: ttlCutoff, reason });
  // An enrichment at enriched_at counted the observations received since enriched_at - TTL; those
  // received before now - TTL have expired since. Enriched assets survive the step above only when
  // enriched_at >= ttlCutoff, which bounds the asset_orgs range scanned (index on last_seen). A minute
  // of slack covers the job's clock running slightly ahead of enriched_at.
  const observationTtlMs = deps.config.OBSERVATION_TTL_DAYS * 86_400_000;
  const observationCutoff = new Date(now.getTime() - observationTtlMs);
  const observations = await staleShrunkObservations(deps.pool, {
    since: new Date(ttlCutoff.getTime() - observationTtlMs - 60_000),
    expiredBefore: observationCutoff,
    ttlMs: observationTtlMs,
    reason: `observation_ttl:${now.toISOString().slice(0, 10)}`,
  });
  const triage = await expireTriage(deps, now);
  await enqueueDeliveries({ prisma: deps.prisma, producer: deps.producer }, triage.deliveries);
  const consoleSessions = await endConsoleSessions(deps.prisma, { select: { lapsed: true }, now });
  const idem = await purgeIdempotencyKeys(deps.pool, new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS));
  const created = await ensureMonthPartitions(deps.pool, now);
  const events = await dropExpiredMonths(deps.pool, {
    table: 'events',
    before: new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000),
  });
  const signalDays = deps.config.SIGNAL_RETENTION_DAYS;
  const signals = signalDays
    ? await dropExpiredMonths(deps.pool, {
        table: 'signals',
        before: new Date(now.getTime() - signalDays * 86_400_000),
      })
    : { rows: 0, dropped: [], kept: [] };
  const outbox = await purgeProcessedOutbox(deps.pool, new Date(now.getTime() - 86_400_000));
  return {
    staled,
    observations_expired: observations,
    idempotency_keys_purged: idem,
    events_purged: events.rows,
    signals_purged: signals.rows,
    partitions: { created, dropped: [...events.dropped, ...signals.dropped], kept: signals.kept },
    default_partition_rows: await defaultPartitionRows(deps.pool),
    outbox_purged: outbox,
    triage_expired: triage.expired,
    console_sessions_ended: consoleSessions,
    artifacts: await artifactUpkeep(deps, now),
  };
}

/**
 * Runs maintenance every MAINTENANCE_INTERVAL_MS on one worker at a time: a Redis lock (SET NX PX)
 * taken per run means several worker processes don't repeat the same work.
 */
export function startMaintenance(deps: WorkerDeps): { stop(): void } {
  const key = `${deps.config.REDIS_PREFIX}:maintenance-lock`;
  const run = async () => {
    try {
      const locked = await deps.producer.connection.set(
        key,
        String(process.pid),
        'PX',
        deps.config.MAINTENANCE_INTERVAL_MS,
        'NX',
      );
      if (locked !== 'OK') return;
      const result = await runMaintenance(deps);
      deps.logger.info('maintenance done', { ...result });
      if (result.default_partition_rows.signals || result.default_partition_rows.events)
        deps.logger.warn('maintenance: rows left in a DEFAULT partition', { ...result.default_partition_rows });
      // then repair work that fell through (docs/reliability.md "Invariants")
      const inv = await checkInvariants(deps, { repair: true });
      const found =
        inv.assets_unqueued.length + inv.assignments_unqueued.length + inv.assignments_failed_retried.length;
      if (found || inv.outbox_stuck || inv.outbox_dead_lettered)
        deps.logger.warn('invariants: fallen-through work found', {
          assets_unqueued: inv.assets_unqueued.length,
          assignments_unqueued: inv.assignments_unqueued.length,
          assignments_failed_retried: inv.assignments_failed_retried.length,
          outbox_stuck: inv.outbox_stuck,
          outbox_dead_lettered: inv.outbox_dead_lettered,
          repaired: inv.repaired,
        });
    } catch (err) {
      deps.logger.warn('maintenance failed', { err });
    }
  };
  // run() catches and logs its own failures, so the timers may drop its promise
  const first = setTimeout(() => void run(), 5000);
  const timer = setInterval(() => void run(), deps.config.MAINTENANCE_INTERVAL_MS);
  first.unref();
  timer.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
