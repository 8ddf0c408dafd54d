import { JOBS, type OutboxEnrichmentJob, type FirewallSyncJob, type WebhookDeliveryJob } from '@risk/common';
import type { WorkerDeps } from './deps';

interface OutboxRow {
  id: string;
  kind: string;
  payload: unknown;
}

export interface RelayResult {
  claimed: number;
  enqueued: number;
  failed: number;
}

/**
 * Moves outbox rows onto the queues: claims a batch with FOR UPDATE SKIP LOCKED (so several workers
 * never take the same rows), enqueues them by kind, and marks them processed in the same transaction.
 * If Redis refuses, the rows get attempts/last_error and stay for the next pass (at-least-once; the
 * consumers are idempotent and job ids deduplicate).
 */
export async function relayOutbox(deps: WorkerDeps, batchSize = 500): Promise<RelayResult> {
  const client = await deps.pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<OutboxRow>(
      `SELECT id::text AS id, kind, payload FROM outbox
        WHERE processed_at IS NULL AND available_at <= now()
        ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [batchSize],
    );
    if (rows.length === 0) {
      await client.query('COMMIT');
      return { claimed: 0, enqueued: 0, failed: 0 };
    }
    const done: string[] = [];
    const failed: Array<{ id: string; error: string }> = [];
    const byKind = new Map<string, OutboxRow[]>();
    for (const row of rows) byKind.set(row.kind, [...(byKind.get(row.kind) ?? []), row]);
    for (const [kind, group] of byKind) {
      try {
        await enqueueGroup(deps, kind, group);
        done.push(...group.map((r) => r.id));
      } catch (err) {
        failed.push(...group.map((r) => ({ id: r.id, error: (err as Error).message.slice(0, 500) })));
      }
    }
    if (done.length) await client.query('UPDATE outbox SET processed_at = now() WHERE id = ANY($1::bigint[])', [done]);
    if (failed.length) {
      await client.query(
        `UPDATE outbox SET attempts = attempts + 1, last_error = f.error
           FROM unnest($1::bigint[], $2::text[]) AS f(id, error) WHERE outbox.id = f.id`,
        [failed.map((f) => f.id), failed.map((f) => f.error)],
      );
    }
    await client.query('COMMIT');
    return { claimed: rows.length, enqueued: done.length, failed: failed.length };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

async function enqueueGroup(deps: WorkerDeps, kind: string, rows: OutboxRow[]): Promise<void> {
  switch (kind) {
    case 'enrichment': {
      const jobs: OutboxEnrichmentJob[] = rows.map((r) => ({
        outboxId: r.id,
        job: JOBS.enrichment.payload.parse(r.payload),
      }));
      await deps.producer.enqueueEnrichment(jobs, 5000);
      return;
    }
    case 'webhook_delivery': {
      const jobs: WebhookDeliveryJob[] = rows.map((r) => JOBS.webhookDelivery.payload.parse(r.payload));
      await Promise.all(jobs.map((j) => deps.producer.enqueueWebhookDelivery({ ...j, timeoutMs: 5000 })));
      return;
    }
    case 'firewall_sync': {
      const jobs: FirewallSyncJob[] = rows.map((r) => JOBS.firewallSync.payload.parse(r.payload));
      await deps.producer.enqueueFirewallSync(jobs, 5000);
      return;
    }
    default:
      throw new Error(`unknown outbox kind '${kind}'`);
  }
}

/** Relays on a timer until stopped; a full batch is followed at once by the next. */
export function startOutboxRelay(deps: WorkerDeps): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = (async () => {
      try {
        let result: RelayResult;
        do {
          result = await relayOutbox(deps);
          if (result.failed) deps.logger.warn('outbox relay could not enqueue', { failed: result.failed });
        } while (!stopped && result.claimed === 500 && result.failed === 0);
      } catch (err) {
        deps.logger.warn('outbox relay pass failed', { err });
      }
      if (!stopped) timer = setTimeout(tick, deps.config.OUTBOX_RELAY_INTERVAL_MS);
    })();
  };
  tick();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
