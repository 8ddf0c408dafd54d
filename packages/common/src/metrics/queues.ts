import type { Queue } from 'bullmq';
import { withTimeout } from '../queue';
import { queueJobs, type ScrapeCollector } from './catalogue';

/** the job states exported per queue: what is waiting, running, scheduled for later, and dead */
export const QUEUE_STATES = ['wait', 'active', 'delayed', 'failed'] as const;

/**
 * Refreshes risk_queue_jobs on scrape: one getJobCounts per queue (BullMQ answers from the lists' and
 * sorted sets' lengths in one round trip, no job is read), bounded by `timeoutMs` so a slow Redis
 * slows a scrape by at most that much.
 */
export function queueDepthCollector(queues: readonly Queue[], timeoutMs = 1000): ScrapeCollector {
  return async () => {
    const counts = await Promise.all(
      queues.map((q) => withTimeout(q.getJobCounts(...QUEUE_STATES), timeoutMs, `job counts of ${q.name}`)),
    );
    queues.forEach((q, i) => {
      for (const state of QUEUE_STATES) queueJobs.set({ queue: q.name, state }, counts[i]![state] ?? 0);
    });
  };
}
