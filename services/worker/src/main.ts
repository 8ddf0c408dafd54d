import http from 'node:http';
import { createLogger, loadConfigOrExit, onShutdown, QueueProducer, withTimeout } from '@risk/common';
import { createPrisma } from '@risk/db';
import { analysisPoolFor, closeAnalysisPools } from './analysis/pool';
import { startWorker } from './worker';

const config = loadConfigOrExit();
const logger = createLogger({ service: 'worker', level: config.LOG_LEVEL });

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
  const producer = new QueueProducer({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX }, 'worker-producer');
  await db.pool.query('SELECT 1');
  if (!(await producer.ping(3000)))
    logger.warn('redis is not answering yet; the worker keeps retrying', { redis: config.REDIS_URL });

  const running = startWorker({ config, prisma: db.prisma, pool: db.pool, producer, logger });

  const health = http.createServer(async (req, res) => {
    if (req.url !== '/healthz') {
      res.writeHead(404).end();
      return;
    }
    const [postgres, redis] = await Promise.all([
      withTimeout(db.pool.query('SELECT 1'), 1000, 'pg').then(
        () => 'ok',
        () => 'unavailable',
      ),
      producer.ping(1000).then((ok) => (ok ? 'ok' : 'unavailable')),
    ]);
    const ok = postgres === 'ok' && redis === 'ok';
    res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        status: ok ? 'ok' : 'unavailable',
        checks: { postgres, redis },
        queues: running.workers.map((w) => w.name),
      }),
    );
  });
  await new Promise<void>((resolve) => health.listen(config.WORKER_HEALTH_PORT, '0.0.0.0', resolve));
  logger.info('worker ready', {
    queues: running.workers.map((w) => w.name),
    concurrency: config.ENRICHMENT_CONCURRENCY,
    analysis_threads: analysisPoolFor(config).threads,
    analysis_timeout_ms: config.ENRICHMENT_JOB_TIMEOUT_MS,
    health_port: config.WORKER_HEALTH_PORT,
  });

  onShutdown(logger, async () => {
    health.close();
    await running.close();
    // after the job workers: an analysis still running past their close deadline loses its thread
    await closeAnalysisPools();
    await producer.close();
    await db.close();
  });
}

main().catch((err: unknown) => {
  logger.error('worker failed to start', { err });
  process.exit(1);
});
