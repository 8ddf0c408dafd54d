// The worker's metrics (docs/observability.md): per-job timing and outcomes recorded around each
// processor, and the on-scrape gauges (queue depth, outbox lag, firewall sync states) read only when
// /metrics is scraped, never on a timer.
import {
  collectOnScrape,
  enrichmentOutcomes,
  firewallSyncAssignments,
  jobDuration,
  outboxLag,
  queueDepthCollector,
  requestContext,
  traceCarrierOf,
  webhookDeliveries,
  withSpan,
} from '@risk/common/observability';
import { JOBS, QUEUES, withTimeout, type QueueName } from '@risk/common/queue';
import type { Job } from 'bullmq';
import { countAssignmentsBySyncStatus, outboxLagSeconds } from '@risk/db';
import { ANALYSIS_TIMEOUT } from './analysis/pool';
import type { WorkerDeps } from './deps';

/** a request id as the APIs mint them (ids.ts); anything else in job data is ignored, not logged */
const REQUEST_ID = /^req_[A-Za-z0-9_-]{1,64}$/;

/** The request id an API put in the job's data (the outbox payload carries it too), if any. */
export function requestIdOfJob(job: { data?: unknown } | undefined): string | undefined {
  const id = (job?.data as { request_id?: unknown } | undefined)?.request_id;
  return typeof id === 'string' && REQUEST_ID.test(id) ? id : undefined;
}

/**
 * Wraps a queue's processor: the attempt runs inside the request's log context (every log line the job
 * writes carries the request_id of the API request that caused it), and its duration and outcome are
 * recorded when it settles.
 */
export function instrumentJob<R>(queue: QueueName, processor: (job: Job) => Promise<R>): (job: Job) => Promise<R> {
  return async (job) => {
    const started = process.hrtime.bigint();
    const requestId = requestIdOfJob(job);
    // with tracing on, the attempt is a consumer span continuing the trace of the enqueue (docs/observability.md)
    const run = () =>
      withSpan(
        `process ${queue}`,
        {
          kind: 'consumer',
          parent: traceCarrierOf(job.data),
          attributes: {
            'messaging.system': 'bullmq',
            'messaging.destination.name': queue,
            'messaging.message.id': job.id,
            request_id: requestId,
          },
        },
        () => processor(job),
      );
    try {
      const result = await (requestId ? requestContext.run({ request_id: requestId }, run) : run());
      observe(queue, started, 'completed');
      countOutcome(queue, result, undefined);
      return result;
    } catch (err) {
      observe(queue, started, 'failed');
      countOutcome(queue, undefined, err);
      throw err;
    }
  };
}

function observe(queue: QueueName, started: bigint, outcome: 'completed' | 'failed'): void {
  jobDuration.observe({ queue, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
}

function countOutcome(queue: QueueName, result: unknown, err: unknown): void {
  if (queue === JOBS.enrichment.queue) {
    if (err !== undefined) {
      // the processor turns an analysis past its deadline into an UnrecoverableError with this message
      const timedOut = err instanceof Error && err.message === ANALYSIS_TIMEOUT;
      enrichmentOutcomes.inc({ outcome: 'failed', reason: timedOut ? ANALYSIS_TIMEOUT : 'error' });
      return;
    }
    const r = result as { outcome?: string; reason?: string };
    enrichmentOutcomes.inc({
      outcome: r.outcome ?? 'unknown',
      reason: r.outcome === 'skipped' ? (r.reason ?? '') : '',
    });
  } else if (queue === JOBS.webhookDelivery.queue) {
    webhookDeliveries.inc({
      outcome: err !== undefined ? 'error' : ((result as { outcome?: string }).outcome ?? 'unknown'),
    });
  }
}

/** Registers the worker's on-scrape gauges; returns their removal (the worker's close calls it). */
export function collectWorkerMetrics(deps: WorkerDeps, timeoutMs = 1000): () => void {
  const queues = Object.values(QUEUES).map((name) => deps.producer.queue(name));
  const removals = [
    collectOnScrape(queueDepthCollector(queues, timeoutMs)),
    collectOnScrape(async () => {
      const lag = await withTimeout(outboxLagSeconds(deps.pool), timeoutMs, 'outbox lag');
      outboxLag.set(Math.max(0, lag));
    }),
    collectOnScrape(async () => {
      const rows = await withTimeout(countAssignmentsBySyncStatus(deps.pool), timeoutMs, 'firewall sync states');
      firewallSyncAssignments.reset();
      for (const row of rows) firewallSyncAssignments.set({ status: row.status }, row.n);
    }),
  ];
  return () => removals.forEach((remove) => remove());
}
