import {
  ApiKeyAuthenticator,
  closeServer,
  createLogger,
  listenWithLimits,
  loadConfigOrExit,
  onShutdown,
  reloadTlsOnSighup,
  tlsFilesFrom,
  QueueProducer,
} from '@risk/common';
import { createPrisma } from '@risk/db';
import { createApp, MAX_HEADER_SIZE } from './app';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ service: 'public-api', level: config.LOG_LEVEL });
  const db = createPrisma({
    url: config.DATABASE_URL,
    applicationName: 'public-api',
    max: config.DATABASE_POOL_MAX,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
    onPoolError: (err) => logger.warn('pg pool error', { err }),
  });
  const producer = new QueueProducer({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX }, 'public-api');
  const authenticator = new ApiKeyAuthenticator(db.prisma);
  const app = createApp({ config, prisma: db.prisma, pool: db.pool, producer, logger, authenticator });
  const tls = tlsFilesFrom(config);
  const server = await listenWithLimits(app, { port: config.PUBLIC_API_PORT, maxHeaderSize: MAX_HEADER_SIZE, tls });
  reloadTlsOnSighup(logger, server, tls);
  logger.info('public api listening', { port: config.PUBLIC_API_PORT, protocol: tls ? 'https' : 'http' });

  onShutdown(logger, async () => {
    app.locals.state.shuttingDown = true; // /readyz answers 503 so the load balancer drains us
    await closeServer(server);
    await authenticator.close(); // flushes last_used_at
    await producer.close();
    await db.close();
  });
}

void main();
