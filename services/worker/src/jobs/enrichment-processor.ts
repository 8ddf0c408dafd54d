import { JOBS } from '@risk/common/queue';
import { UnrecoverableError, type Job } from 'bullmq';
import { AnalysisTimeoutError } from '../analysis/pool';
import type { WorkerDeps } from '../deps';
import { enrichAsset, markEnrichmentFailed, type EnrichmentOutcome } from './enrichment';

/**
 * BullMQ processor for the enrichment queue: parse with the catalogue schema, then run the job. An
 * analysis past its deadline fails the job once, without retries (the same content would time out
 * again): the asset becomes `failed` with enrichment_error `analysis_timeout` (docs/security.md).
 */
export function createEnrichmentProcessor(deps: WorkerDeps): (job: Job) => Promise<EnrichmentOutcome> {
  return async (job) => {
    try {
      return await enrichAsset(deps, JOBS.enrichment.payload.parse(job.data));
    } catch (err) {
      if (err instanceof AnalysisTimeoutError) throw new UnrecoverableError(err.message);
      throw err;
    }
  };
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
