import { JOBS } from '@risk/common';
import type { Job } from 'bullmq';
import type { WorkerDeps } from '../deps';
import { enrichAsset, markEnrichmentFailed, type EnrichmentOutcome } from './enrichment';

/** BullMQ processor for the enrichment queue: parse with the catalogue schema, then run the job. */
export function createEnrichmentProcessor(deps: WorkerDeps): (job: Job) => Promise<EnrichmentOutcome> {
  return async (job) => enrichAsset(deps, JOBS.enrichment.payload.parse(job.data));
}

/** After the last attempt fails, the asset is marked failed with the reason (and an event recorded). */
export async function onEnrichmentFailed(deps: WorkerDeps, job: Job | undefined, err: Error): Promise<void> {
  if (!job) return;
  const attempts = job.opts.attempts ?? 1;
  if (job.attemptsMade < attempts && err.name !== 'UnrecoverableError') return;
  const parsed = JOBS.enrichment.payload.safeParse(job.data);
  if (!parsed.success) return;
  await markEnrichmentFailed(deps, parsed.data, err.message);
}
