import type { Logger } from '@risk/common/observability';
import type { EnrichmentJob, QueueProducer } from '@risk/common/queue';
import { markOutboxProcessedAsync, MicroBatch } from '@risk/db';
import type { AppDeps } from '../../deps';

/** How long a flush waits for Redis; past it the outbox relay (worker) takes over. */
const ENQUEUE_TIMEOUT_MS = 500;

interface Pending {
  jobs: EnrichmentJob[];
  outboxIds: string[];
}

/**
 * Group commit for the post-commit enqueue (a MicroBatch, docs/data-access.md): the jobs of every
 * request that committed while a flush was under way go out together in the next flush, as ONE BullMQ
 * addBulk and ONE `UPDATE outbox SET processed_at` for all their rows. A lone request flushes at once
 * (no timer), so under load the Redis and outbox round trips are shared by many requests instead of paid
 * by each. A flush never rejects: if Redis is down or slow the rows stay unprocessed and the worker's
 * outbox relay enqueues them (job ids deduplicate a job that did reach Redis).
 */
export class EnrichmentEnqueuer {
  private readonly flushes = new MicroBatch<Pending, void>({
    maxInFlight: 1,
    maxItems: Number.POSITIVE_INFINITY,
    tick: 'nextTick',
    runBatch: async (parts) => {
      await this.flush({ jobs: parts.flatMap((p) => p.jobs), outboxIds: parts.flatMap((p) => p.outboxIds) });
      return parts.map(() => undefined);
    },
  });

  constructor(
    private readonly producer: QueueProducer,
    private readonly pool: AppDeps['pool'],
    private readonly logger: Logger,
  ) {}

  /** Resolves once the jobs' flush has finished (successfully or not). */
  enqueue(jobs: EnrichmentJob[], outboxIds: string[]): Promise<void> {
    if (jobs.length === 0) return Promise.resolve();
    return this.flushes.submit({ jobs, outboxIds });
  }

  private async flush(batch: Pending): Promise<void> {
    if (batch.jobs.length !== batch.outboxIds.length) {
      // never name a job after the wrong row: leave them all to the relay, which reads both from the row
      this.logger.warn('enrichment jobs and outbox rows differ in number; the outbox relay will enqueue them', {
        jobs: batch.jobs.length,
        rows: batch.outboxIds.length,
      });
      return;
    }
    try {
      // ri_outbox returns one id per job, in the order of its unnest (docs/reliability.md "Enrichment jobs")
      await this.producer.enqueueEnrichment(
        batch.jobs.map((job, i) => ({ outboxId: batch.outboxIds[i]!, job })),
        ENQUEUE_TIMEOUT_MS,
      );
    } catch (err) {
      this.logger.warn('enrichment enqueue failed; the outbox relay will retry', { err, jobs: batch.jobs.length });
      return;
    }
    try {
      // no wait for the WAL flush: a mark lost in a crash only makes the relay enqueue the job again
      await markOutboxProcessedAsync(this.pool, batch.outboxIds);
    } catch (err) {
      // harmless: the relay enqueues the row again and the job id deduplicates it
      this.logger.warn('could not mark outbox rows processed', { err });
    }
  }
}

const enqueuers = new WeakMap<QueueProducer, EnrichmentEnqueuer>();

/** One enqueuer per producer (an app's deps are plain objects built by main.ts, tests and the bench). */
export function enrichmentEnqueuer(deps: Pick<AppDeps, 'producer' | 'pool' | 'logger'>): EnrichmentEnqueuer {
  let e = enqueuers.get(deps.producer);
  if (!e) {
    e = new EnrichmentEnqueuer(deps.producer, deps.pool, deps.logger);
    enqueuers.set(deps.producer, e);
  }
  return e;
}
