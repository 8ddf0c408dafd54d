// Public API process (runApiProcess, @risk/common): the queue producer, the API-key authenticator and the bulk
// projector on top of the shared start-up; at shutdown /readyz answers 503 first so the load balancer drains the
// process.
import { ApiKeyAuthenticator, runApiProcess } from '@risk/common/http';
import { QueueProducer } from '@risk/common/queue';
import { createApp, MAX_HEADER_SIZE } from './app';
import { startProjector } from './domain/signals/projector';

void runApiProcess({
  service: 'public-api',
  port: (config) => config.PUBLIC_API_PORT,
  maxHeaderSize: MAX_HEADER_SIZE,
  async start({ config, logger, db }) {
    const producer = new QueueProducer({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX }, 'public-api');
    const authenticator = new ApiKeyAuthenticator(db.prisma);
    const deps = { config, prisma: db.prisma, pool: db.pool, producer, logger, authenticator };
    // applies accepted bulk signals to their assets in the background (docs/reliability.md "Asset projection")
    const projector = startProjector(deps);
    const app = createApp({ ...deps, projector });
    return {
      app,
      draining: () => {
        app.locals.state.shuttingDown = true;
      },
      async close() {
        await projector.stop(); // a projection in flight commits or rolls back (its markers stay for the next replica)
        await authenticator.close(); // flushes last_used_at
        await producer.close();
      },
    };
  },
});
