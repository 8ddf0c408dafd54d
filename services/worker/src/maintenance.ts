import { EVENT_RETENTION_DAYS, IDEMPOTENCY_RETENTION_MS } from '@risk/common';
import type { WorkerDeps } from './deps';

export interface MaintenanceResult {
  staled: number;
  idempotency_keys_purged: number;
  events_purged: number;
  outbox_purged: number;
}

/**
 * Periodic upkeep, each step one set-based statement:
 * - enriched assets older than ENRICHMENT_TTL_DAYS become stale and get an enrichment outbox row
 *   (reason `ttl:<day>`, so the job id differs from the original enrichment of the same digest);
 * - idempotency keys older than 24 h, events older than 30 days and processed outbox rows older than
 *   a day are deleted.
 */
export async function runMaintenance(deps: WorkerDeps, now = new Date()): Promise<MaintenanceResult> {
  const ttlCutoff = new Date(now.getTime() - deps.config.ENRICHMENT_TTL_DAYS * 86_400_000);
  const reason = `ttl:${now.toISOString().slice(0, 10)}`;
  const staled = await deps.pool.query(
    `WITH expired AS (
       UPDATE assets SET enrichment_status = 'stale', updated = now()
        WHERE enrichment_status = 'enriched' AND enriched_at < $1
        RETURNING fingerprint, latest_digest
     )
     INSERT INTO outbox (kind, payload)
     SELECT 'enrichment', jsonb_build_object('fingerprint', fingerprint, 'digest', latest_digest, 'reason', $2::text) FROM expired`,
    [ttlCutoff, reason],
  );
  const idem = await deps.pool.query('DELETE FROM idempotency_keys WHERE created < $1', [
    new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS),
  ]);
  const events = await deps.pool.query('DELETE FROM events WHERE created < $1', [
    new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000),
  ]);
  const outbox = await deps.pool.query('DELETE FROM outbox WHERE processed_at < $1', [
    new Date(now.getTime() - 86_400_000),
  ]);
  return {
    staled: staled.rowCount ?? 0,
    idempotency_keys_purged: idem.rowCount ?? 0,
    events_purged: events.rowCount ?? 0,
    outbox_purged: outbox.rowCount ?? 0,
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
    } catch (err) {
      deps.logger.warn('maintenance failed', { err });
    }
  };
  const first = setTimeout(run, 5000);
  const timer = setInterval(run, deps.config.MAINTENANCE_INTERVAL_MS);
  first.unref();
  timer.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
