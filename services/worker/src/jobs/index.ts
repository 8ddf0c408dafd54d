import { createWorkerConnection, JOBS, type QueueName } from '@risk/common/queue';
import { Worker, type Job } from 'bullmq';
import type { WorkerDeps } from '../deps';
import { instrumentJob, requestIdOfJob } from '../metrics';
import { createArtifactVerdictProcessor } from './artifact-verdicts';
import { createEnrichmentProcessor, onEnrichmentFailed } from './enrichment-processor';
import { createFirewallSyncProcessor, onFirewallSyncFailed } from './firewall-sync';
import { createWebhookDeliveryProcessor } from './webhook-delivery';

/**
 * Every queue the worker consumes, in one table: queue name, processor, concurrency. Each worker
 * gets its own blocking Redis connection (BullMQ requires maxRetriesPerRequest: null there).
 */
export function startJobWorkers(deps: WorkerDeps): Worker[] {
  const { config } = deps;
  const table: Array<{
    queue: QueueName;
    processor: (job: Job) => Promise<unknown>;
    concurrency: number;
    onFailed?: (job: Job | undefined, err: Error) => Promise<void>;
  }> = [
    {
      queue: JOBS.enrichment.queue,
      processor: createEnrichmentProcessor(deps),
      concurrency: config.ENRICHMENT_CONCURRENCY,
      onFailed: (job, err) => onEnrichmentFailed(deps, job, err),
    },
    {
      queue: JOBS.webhookDelivery.queue,
      processor: createWebhookDeliveryProcessor({
        prisma: deps.prisma,
        config,
        producer: deps.producer,
        logger: deps.logger,
      }),
      concurrency: 20,
    },
    {
      queue: JOBS.firewallSync.queue,
      processor: createFirewallSyncProcessor(deps),
      concurrency: 4,
      onFailed: (job, err) => onFirewallSyncFailed(deps, job, err),
    },
    {
      // a verdict made or changed re-enriches the assets naming its hash (docs/artifacts.md "Judgement")
      queue: JOBS.artifactVerdictChanged.queue,
      processor: createArtifactVerdictProcessor(deps),
      concurrency: 2,
    },
  ];
  return table.map(({ queue, processor, concurrency, onFailed }) => {
    const connection = createWorkerConnection(
      { url: config.REDIS_URL, prefix: config.REDIS_PREFIX },
      `worker-${queue}`,
    );
    const worker = new Worker(queue, instrumentJob(queue, processor), {
      connection,
      prefix: config.REDIS_PREFIX,
      concurrency,
      lockDuration: config.WORKER_LOCK_DURATION_MS,
      stalledInterval: config.WORKER_STALLED_INTERVAL_MS,
      maxStalledCount: 3,
    });
    worker.on('failed', (job, err) => {
      deps.logger.warn('job failed', {
        queue,
        job_id: job?.id,
        attempts: job?.attemptsMade,
        err: err.message,
        request_id: requestIdOfJob(job),
      });
      if (onFailed)
        onFailed(job, err).catch((e: unknown) => deps.logger.error('failure handler failed', { queue, err: e }));
    });
    worker.on('error', (err) => deps.logger.warn('worker error', { queue, err: err.message }));
    // BullMQ never closes a connection it was handed (only the ones it creates), so close it here:
    // left open it keeps the process alive after shutdown (and jest workers after a suite)
    worker.on('closed', () => connection.disconnect());
    return worker;
  });
}
