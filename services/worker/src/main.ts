import { closeScanPools } from '@risk/artifacts';
import { configWarnings, loadConfigOrExit } from '@risk/common/config';
import { onShutdown } from '@risk/common/server';
import { createLogger, startTracing } from '@risk/common/observability';
import { QueueProducer } from '@risk/common/queue';
import { createPrisma, pingDatabase } from '@risk/db';
import { closeReplyParsers } from '@risk/firewalls';
import { loadDefaultFeeds } from './advisories/default-feeds';
import { analysisPoolFor, closeAnalysisPools } from './analysis/pool';
import { warmUpAnalysis } from './analysis/warm-up';
import { startHealthServer } from './health-server';
import { startWorker } from './worker';

const config = loadConfigOrExit();
const logger = createLogger({ service: 'worker', level: config.LOG_LEVEL });
for (const warning of configWarnings(config)) logger.warn(warning);
// off unless OTEL_EXPORTER_OTLP_ENDPOINT is set; off, no OpenTelemetry module is loaded (docs/observability.md)
const tracing = startTracing({ serviceName: 'worker' });

async function main() {
  const db = createPrisma({
    url: config.DATABASE_URL,
    applicationName: 'worker',
    // every concurrent job may hold a connection, plus the relay and the delivery workers
    max: Math.max(config.DATABASE_POOL_MAX, config.ENRICHMENT_CONCURRENCY + 4),
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
    onPoolError: (err) => logger.warn('postgres pool error', { err: err.message }),
  });
  const producer = new QueueProducer({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX }, 'worker-producer', {
    firewallSyncBackoffMs: config.FIREWALL_SYNC_BACKOFF_MS,
  });
  await pingDatabase(db.pool);
  if (!(await producer.ping(3000)))
    logger.warn('redis is not answering yet; the worker keeps retrying', { redis: config.REDIS_URL });

  // the analysis threads warm up before the worker takes jobs and before /healthz answers (docs/performance.md "A
  // cold worker"); a failed or slow warm-up only means a cold start, never a worker that does not start
  const warm = await warmUpAnalysis(analysisPoolFor(config), {
    cpuMs: config.ENRICHMENT_WARMUP_MS,
    // well within the orchestrator's start-up allowance (infra/k8s/base/worker.yaml: 60 s to open the health port),
    // with room for threads that run at a lower priority on a busy node
    deadlineMs: 30_000,
  });
  if (warm.ok) logger.info('analysis threads warmed up', { ...warm });
  else logger.warn('analysis warm-up ended early; the worker starts cold', { ...warm });

  const deps = { config, prisma: db.prisma, pool: db.pool, producer, logger };
  const running = startWorker(deps);
  const health = await startHealthServer(deps, running, { port: config.WORKER_HEALTH_PORT });
  logger.info('worker ready', {
    queues: running.workers.map((w) => w.name),
    concurrency: config.ENRICHMENT_CONCURRENCY,
    analysis_threads: analysisPoolFor(config).threads,
    analysis_timeout_ms: config.ENRICHMENT_JOB_TIMEOUT_MS,
    health_port: config.WORKER_HEALTH_PORT,
  });

  // the shipped advisory feeds (docs/advisories.md "Feeds"), in the background: jobs run meanwhile with the curated
  // feed the engine ships, and the assets an import changes are re-enriched when it ends
  const feeds = (config.ADVISORY_FEEDS_AUTOLOAD ? loadDefaultFeeds(deps) : Promise.resolve([])).then(
    (results) =>
      logger.info('advisory feeds loaded', {
        feeds: results.map((r) => ({ source: r.source, inserted: r.inserted, updated: r.updated, ms: r.ms })),
      }),
    (err: unknown) => logger.warn('loading the shipped advisory feeds failed; the next start retries', { err }),
  );

  onShutdown(logger, async () => {
    await feeds;
    health.close();
    await running.close();
    // after the job workers: an analysis (or a firewall reply's parse, or an artifact re-scan: its lease runs out)
    // still running past their close deadline loses its thread
    await Promise.all([closeAnalysisPools(), closeReplyParsers(), closeScanPools()]);
    await producer.close();
    await db.close();
    await tracing.shutdown(); // exports the spans still buffered
  });
}

main().catch((err: unknown) => {
  logger.error('worker failed to start', { err });
  process.exit(1);
});
