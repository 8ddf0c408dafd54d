// Admin API process (runApiProcess, @risk/common): refuses to start without its token and the secrets key, and
// connects Redis (rate limits, readiness) on top of the shared start-up.
import IORedis from 'ioredis';
import { runApiProcess } from '@risk/common/http';
import { closeReplyParsers } from '@risk/firewalls';
import { createApp } from './app';

void runApiProcess({
  service: 'admin-api',
  port: (config) => config.ADMIN_API_PORT,
  requiredSecrets: ['ADMIN_API_TOKEN', 'SECRETS_KEY'],
  async start({ config, logger, db, readDb }) {
    const redis = new IORedis(config.REDIS_URL, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
    });
    redis.on('error', (err) => logger.warn('redis error', { err: err.message }));
    await redis.connect().catch((err: Error) => logger.warn('redis not reachable at start', { err: err.message }));
    // the risk feeds read on DATABASE_READ_URL's replica when one is set (docs/scaling.md "Read replicas")
    const app = createApp({
      config,
      prisma: db.prisma,
      readPrisma: readDb.prisma,
      logger,
      pingRedis: () => redis.ping(),
      redis,
    });
    return {
      app,
      async close() {
        redis.disconnect();
        // after the server has drained: no firewall test or logging call is parsing a reply any more
        await closeReplyParsers();
      },
    };
  },
});
