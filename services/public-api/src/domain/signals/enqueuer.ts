import type { EnrichmentJob, Logger, QueueProducer } from '@risk/common';
import type { AppDeps } from '../../deps';

/** How long a flush waits for Redis; past it the outbox relay (worker) takes over. */
const ENQUEUE_TIMEOUT_MS = 500;

interface Pending {
  jobs: EnrichmentJob[];
  outboxIds: string[];
  done: Array<() => void>;
}

/**
 * Group commit for the post-commit enqueue: the jobs of every request that committed while a flush
 * was under way go out together in the next flush, as ONE BullMQ addBulk and ONE
 * `UPDATE outbox SET processed_at` for all their rows. A lone request flushes at once (no timer), so
 * under load the Redis and outbox round trips are shared by many requests instead of paid by each.
 * A flush never rejects: if Redis is down or slow the rows stay unprocessed and the worker's outbox
 * relay enqueues them (job ids deduplicate a job that did reach Redis).
 */
export class EnrichmentEnqueuer {
  private pending: Pending | null = null;
  private flushing = false;

  constructor(
    private readonly producer: QueueProducer,
    private readonly pool: AppDeps['pool'],
    private readonly logger: Logger,
  ) {}

  /** Resolves once the jobs' flush has finished (successfully or not). */
  enqueue(jobs: EnrichmentJob[], outboxIds: string[]): Promise<void> {
    if (jobs.length === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const p = (this.pending ??= { jobs: [], outboxIds: [], done: [] });
      for (const j of jobs) p.jobs.push(j);
      for (const id of outboxIds) p.outboxIds.push(id);
      p.done.push(resolve);
      if (!this.flushing) void this.flushLoop();
    });
  }

  private async flushLoop(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending) {
        const batch = this.pending;
        this.pending = null;
        await this.flush(batch);
        for (const d of batch.done) d();
      }
    } finally {
      this.flushing = false;
    }
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
    if (batch.outboxIds.length === 0) return;
    try {
      // no wait for the WAL flush: a mark lost in a crash only makes the relay enqueue the job again
      const ids = batch.outboxIds.filter((id) => /^\d+$/.test(id)).join(',');
      const client = await this.pool.connect();
      try {
        await client.query(
          `BEGIN; SET LOCAL synchronous_commit = off; UPDATE outbox SET processed_at = now() WHERE id = ANY('{${ids}}'::bigint[]); COMMIT`,
        );
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined); // never hand back a connection in a failed transaction
        throw err;
      } finally {
        client.release();
      }
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
