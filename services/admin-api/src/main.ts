// Admin API process: load config once, connect Postgres and Redis, listen, stop gracefully.
import IORedis from 'ioredis';
import {
  closeServer,
  createLogger,
  listenWithLimits,
  loadConfigOrExit,
  onShutdown,
  reloadTlsOnSighup,
  requireSecret,
  tlsFilesFrom,
} from '@risk/common';
import { createPrisma } from '@risk/db';
import { createApp } from './app';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  requireSecret(config, 'ADMIN_API_TOKEN');
  requireSecret(config, 'SECRETS_KEY');
  const logger = createLogger({ service: 'admin-api', level: config.LOG_LEVEL });
  const db = createPrisma({
    url: config.DATABASE_URL,
    applicationName: 'admin-api',
    max: config.DATABASE_POOL_MAX,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
    onPoolError: (err) => logger.error('pg pool error', { err }),
  });
  const redis = new IORedis(config.REDIS_URL, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
  });
  redis.on('error', (err) => logger.warn('redis error', { err: err.message }));
  await redis.connect().catch((err: Error) => logger.warn('redis not reachable at start', { err: err.message }));
  const app = createApp({ config, db: db.prisma, logger, pingRedis: () => redis.ping(), redis });
  const tls = tlsFilesFrom(config);
  const server = await listenWithLimits(app, { port: config.ADMIN_API_PORT, tls });
  reloadTlsOnSighup(logger, server, tls);
  logger.info('admin api listening', { port: config.ADMIN_API_PORT, protocol: tls ? 'https' : 'http' });
  onShutdown(logger, async () => {
    await closeServer(server);
    redis.disconnect();
    await db.close();
  });
}

void main();
