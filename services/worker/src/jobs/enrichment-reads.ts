import type { EnrichmentJob } from '@risk/common';
import { MicroBatch, readEnrichmentJobs, type JobRead } from '@risk/db';
import type { WorkerDeps } from '../deps';

/**
 * The job reads, grouped like a group commit (a MicroBatch, docs/data-access.md): a read issued while
 * two batches are out waits for the next round trip and shares it with every other read queued
 * meanwhile (up to 100). A lone read goes out on the next tick, so it waits for nothing. A failed batch
 * fails each of its jobs (BullMQ retries).
 */
const reads = new WeakMap<WorkerDeps['pool'], MicroBatch<EnrichmentJob, JobRead | undefined>>();

export function readJob(deps: WorkerDeps, job: EnrichmentJob): Promise<JobRead | undefined> {
  let batch = reads.get(deps.pool);
  if (!batch) {
    const db = deps.pool;
    const ttlMs = deps.config.OBSERVATION_TTL_DAYS * 86_400_000;
    batch = new MicroBatch<EnrichmentJob, JobRead | undefined>({
      maxInFlight: 2,
      maxItems: 100,
      tick: 'nextTick',
      runBatch: (jobs) => readEnrichmentJobs(db, jobs, new Date(Date.now() - ttlMs)),
    });
    reads.set(deps.pool, batch);
  }
  return batch.submit(job);
}
