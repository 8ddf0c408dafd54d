import { JOBS, type EnrichmentJob, type FirewallSyncJob, type WebhookDeliveryJob } from '@risk/common/queue';
import { relayOutboxRows, type OutboxOutcome, type OutboxRow } from '@risk/db';
import type { WorkerDeps } from './deps';

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
  const { rows, outcome } = await relayOutboxRows(deps.pool, batchSize, async (claimed) => {
    const out: OutboxOutcome = { done: [], failed: [], dead: [] };
    const byKind = new Map<string, OutboxRow[]>();
    for (const row of claimed) byKind.set(row.kind, [...(byKind.get(row.kind) ?? []), row]);
    for (const [kind, group] of byKind) {
      const relay = RELAYS.get(kind);
      if (!relay) {
        out.dead.push(...group.map((r) => ({ id: r.id, error: `unknown outbox kind '${kind}'` })));
        continue;
      }
      const ready: Array<Parsed<unknown>> = [];
      for (const row of group) {
        const parsed = relay.schema.safeParse(row.payload);
        if (parsed.success) ready.push({ id: row.id, job: parsed.data });
        else out.dead.push({ id: row.id, error: `payload refused: ${parsed.error.message}` });
      }
      if (ready.length === 0) continue;
      try {
        await relay.enqueue(deps, ready);
        out.done.push(...ready.map((r) => r.id));
      } catch (err) {
        out.failed.push(...ready.map((r) => ({ id: r.id, error: (err as Error).message })));
      }
    }
    return out;
  });
  return {
    claimed: rows.length,
    enqueued: outcome.done.length,
    failed: outcome.failed.length,
    dead_lettered: outcome.dead.length,
  };
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
