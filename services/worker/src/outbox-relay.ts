import { JOBS, type EnrichmentJob, type FirewallSyncJob, type WebhookDeliveryJob } from '@risk/common/queue';
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
  /** rows set aside this pass: their payload or kind cannot become a job (docs/reliability.md "Outbox relay") */
  dead_lettered: number;
}

/** A row ready to enqueue: its id (names an enrichment job) and its parsed payload. */
type Parsed<T> = { id: string; job: T };

/**
 * Moves outbox rows onto the queues: claims a batch with FOR UPDATE SKIP LOCKED (so several workers
 * never take the same rows), enqueues them by kind, and marks them processed in the same transaction.
 * If Redis refuses, the rows get attempts/last_error and stay for the next pass (at-least-once; the
 * consumers are idempotent and job ids deduplicate). A row that can never become a job (its payload
 * fails the job's schema, its kind is unknown) is dead-lettered with the error and skipped from then on,
 * so it never holds back the rest of its group (docs/reliability.md "Outbox relay").
 */
export async function relayOutbox(deps: WorkerDeps, batchSize = 500): Promise<RelayResult> {
  const client = await deps.pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<OutboxRow>(
      `SELECT id::text AS id, kind, payload FROM outbox
        WHERE processed_at IS NULL AND dead_lettered_at IS NULL AND available_at <= now()
        ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [batchSize],
    );
    if (rows.length === 0) {
      await client.query('COMMIT');
      return { claimed: 0, enqueued: 0, failed: 0, dead_lettered: 0 };
    }
    const done: string[] = [];
    const failed: Array<{ id: string; error: string }> = [];
    const dead: Array<{ id: string; error: string }> = [];
    const byKind = new Map<string, OutboxRow[]>();
    for (const row of rows) byKind.set(row.kind, [...(byKind.get(row.kind) ?? []), row]);
    for (const [kind, group] of byKind) {
      const relay = RELAYS.get(kind);
      if (!relay) {
        dead.push(...group.map((r) => ({ id: r.id, error: `unknown outbox kind '${kind}'` })));
        continue;
      }
      const ready: Array<Parsed<unknown>> = [];
      for (const row of group) {
        const parsed = relay.schema.safeParse(row.payload);
        if (parsed.success) ready.push({ id: row.id, job: parsed.data });
        else dead.push({ id: row.id, error: `payload refused: ${parsed.error.message}` });
      }
      if (ready.length === 0) continue;
      try {
        await relay.enqueue(deps, ready);
        done.push(...ready.map((r) => r.id));
      } catch (err) {
        failed.push(...ready.map((r) => ({ id: r.id, error: (err as Error).message })));
      }
    }
    if (done.length) await client.query('UPDATE outbox SET processed_at = now() WHERE id = ANY($1::bigint[])', [done]);
    if (failed.length) {
      await client.query(
        `UPDATE outbox SET attempts = attempts + 1, last_error = f.error
           FROM unnest($1::bigint[], $2::text[]) AS f(id, error) WHERE outbox.id = f.id`,
        [failed.map((f) => f.id), failed.map((f) => f.error.slice(0, 500))],
      );
    }
    if (dead.length) {
      await client.query(
        `UPDATE outbox SET attempts = attempts + 1, last_error = f.error, dead_lettered_at = now()
           FROM unnest($1::bigint[], $2::text[]) AS f(id, error) WHERE outbox.id = f.id`,
        [dead.map((f) => f.id), dead.map((f) => f.error.slice(0, 500))],
      );
    }
    await client.query('COMMIT');
    return { claimed: rows.length, enqueued: done.length, failed: failed.length, dead_lettered: dead.length };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

interface JobSchema<T> {
  safeParse(v: unknown): { success: true; data: T } | { success: false; error: { message: string } };
}

/** How one outbox kind is relayed: the job schema its payload must pass, and how its rows are enqueued. */
interface KindRelay {
  schema: JobSchema<unknown>;
  enqueue(deps: WorkerDeps, rows: Array<Parsed<unknown>>): Promise<void>;
}

function kindRelay<T>(
  schema: JobSchema<T>,
  enqueue: (deps: WorkerDeps, rows: Array<Parsed<T>>) => Promise<void>,
): KindRelay {
  // rows reach enqueue only after schema.safeParse accepted them, so their job is a T
  return { schema, enqueue: enqueue as KindRelay['enqueue'] };
}

const RELAYS = new Map<string, KindRelay>(
  Object.entries({
    enrichment: kindRelay<EnrichmentJob>(JOBS.enrichment.payload, (deps, rows) =>
      deps.producer.enqueueEnrichment(
        rows.map((r) => ({ outboxId: r.id, job: r.job })),
        5000,
      ),
    ),
    webhook_delivery: kindRelay<WebhookDeliveryJob>(JOBS.webhookDelivery.payload, async (deps, rows) => {
      await Promise.all(rows.map((r) => deps.producer.enqueueWebhookDelivery({ ...r.job, timeoutMs: 5000 })));
    }),
    firewall_sync: kindRelay<FirewallSyncJob>(JOBS.firewallSync.payload, (deps, rows) =>
      deps.producer.enqueueFirewallSync(
        rows.map((r) => r.job),
        5000,
      ),
    ),
  }),
);

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
          if (result.dead_lettered)
            deps.logger.error('outbox rows dead-lettered (see outbox.last_error)', {
              dead_lettered: result.dead_lettered,
            });
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
