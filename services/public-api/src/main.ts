// Public API process (runApiProcess, @risk/common): the queue producer, the API-key authenticator and the bulk
// projector on top of the shared start-up; at shutdown /readyz answers 503 first so the load balancer drains the
// process.
import { closeScanPools } from '@risk/artifacts';
import { ApiKeyAuthenticator, runApiProcess } from '@risk/common/http';
import { QueueProducer } from '@risk/common/queue';
import { createApp, MAX_HEADER_SIZE } from './app';
import { startProjector } from './domain/signals/projector';
import { collectReplicaLag } from './replica-lag';

void runApiProcess({
  service: 'public-api',
  port: (config) => config.PUBLIC_API_PORT,
  maxHeaderSize: MAX_HEADER_SIZE,
  async start({ config, logger, db, readDb }) {
    const producer = new QueueProducer({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX }, 'public-api');
    const authenticator = new ApiKeyAuthenticator(db.prisma);
    // lists, search, exports, downloads and the overview read on DATABASE_READ_URL's replica when one is set
    const replica = { prisma: readDb.prisma, pool: readDb.pool };
    const deps = { config, prisma: db.prisma, pool: db.pool, readDb: replica, producer, logger, authenticator };
    // applies accepted bulk signals to their assets in the background (docs/reliability.md "Asset projection")
    const projector = startProjector(deps);
    // the replica's replay lag on every scrape, so lists that lag behind writes are visible (docs/scaling.md)
    const stopLagMetric = collectReplicaLag(readDb);
    const app = createApp({ ...deps, projector });
    return {
      app,
      draining: () => {
        app.locals.state.shuttingDown = true;
      },
      async close() {
        stopLagMetric();
        await projector.stop(); // a projection in flight commits or rolls back (its markers stay for the next replica)
        await authenticator.close(); // flushes last_used_at
        await closeScanPools(); // a scan cut short keeps its lease until it runs out (docs/artifacts.md)
        await producer.close();
      },
    };
  },
});
