// Express app factory for the admin API (no listen). The routes are defined in src/routes/<resource>.ts with
// @risk/common's defineRoute (docs/architecture.md "Routes"): method, path, credential, zod schemas, and a
// thin handler calling one use case in src/domain/<resource>/<verb-noun>.ts.
import express from 'express';
import helmet from 'helmet';
import { type Config } from '@risk/common/config';
import { docsSite } from '@risk/common/docs-site';
import {
  errorHandler,
  mountRoutes,
  notFoundHandler,
  parseQueryString,
  requestIdMiddleware,
  requireJsonContentType,
  requestIdOf,
  rateLimitSettings,
  RequestGuard,
} from '@risk/common/http';
import { hsts } from '@risk/common/server';
import { httpMetrics, metricsEndpoint, type Logger } from '@risk/common/observability';
import { parseAllowList, allowedHostsFor } from '@risk/common/outbound';
import type { PrismaClient } from '@risk/db';
import type IORedis from 'ioredis';
import { createTenantTokenSigner } from './auth';
import {
  createConnector,
  defaultConnectorContext,
  type FirewallConnection,
  type FirewallConnector,
} from '@risk/firewalls';
import { routeHost, type AdminContext } from './http/route';
import { FeedCache } from './domain/feeds/feed-cache';
import { createQueuesBoard, QUEUES_BOARD_PATH } from './queues-board';
import { ADMIN_ROUTES } from './routes';
import { consoleSite } from './console/static-site';
import { consoleProxy } from './console/proxy';

export interface AppDeps {
  config: Config;
  prisma: PrismaClient;
  /** DATABASE_READ_URL's client for lag-tolerant reads (main.ts); absent, `prisma` (docs/scaling.md "Read replicas") */
  readPrisma?: PrismaClient;
  logger: Logger;
  /** resolves when Redis answers PING */
  pingRedis: () => Promise<unknown>;
  /** tests inject a connector context (timeouts); defaults to 10 s and the firewall allow-list */
  connectorFor?: (connection: FirewallConnection) => FirewallConnector;
  /**
   * the connection rate-limit counters live on (fail-fast: no offline queue; main.ts passes it); without
   * it (and without `guard`) the counters are per process, not shared by replicas
   */
  redis?: IORedis;
  /** rate limits (docs/security.md "Rate limits and caps"); built on `redis` when absent */
  guard?: RequestGuard;
  /** how long a rendered risk feed is reused (docs/feeds.md "Caching"); default 15 s, 0 in loop tests */
  feedCacheTtlMs?: number;
  /** the built console (docs/console.md); default packages/console/dist */
  consoleDir?: string;
}

/** a rendered feed is reused this long (docs/feeds.md "Caching") */
const FEED_CACHE_TTL_MS = 15_000;

function guardOn(deps: AppDeps): RequestGuard {
  return new RequestGuard(rateLimitSettings(deps.config), {
    redis: deps.redis ?? null,
    keyPrefix: deps.config.REDIS_PREFIX,
    logger: deps.logger,
  });
}

export function createApp(deps: AppDeps) {
  const { config, prisma, logger } = deps;
  const secretsKey = config.SECRETS_KEY ?? '';
  const firewallHosts = allowedHostsFor(config, 'firewall');
  const allowList = parseAllowList(firewallHosts);
  // FIREWALL_ALLOWED_CIDRS is parsed here: a bad setting stops the admin API at start (docs/security.md "Firewall targets")
  const connectorContext = { ...defaultConnectorContext(firewallHosts, config.FIREWALL_ALLOWED_CIDRS), allowList };
  const context: AdminContext = {
    config,
    prisma,
    readPrisma: deps.readPrisma ?? prisma,
    logger,
    signer: createTenantTokenSigner(secretsKey),
    tenantTokenTtlDays: config.TENANT_TOKEN_TTL_DAYS,
    firewalls: {
      secretsKey,
      allowList,
      connectorFor: deps.connectorFor ?? ((c: FirewallConnection) => createConnector(c, connectorContext)),
    },
    guard: deps.guard ?? guardOn(deps),
    pingRedis: deps.pingRedis,
    feedCache: new FeedCache(deps.feedCacheTtlMs ?? FEED_CACHE_TTL_MS),
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('query parser', parseQueryString);
  app.use(httpMetrics()); // docs/observability.md
  app.use(requestIdMiddleware());
  app.use(hsts(config.HSTS_MAX_AGE_SECONDS));
  // one access-log line per request: the route pattern and req.path only, never the query string
  // (GET /deploy/v1/credentials carries its secret there) and never a header or body
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path;
      logger.info('request', {
        method: req.method,
        route: route ?? null,
        path: route ? undefined : req.path,
        status: res.statusCode,
        request_id: requestIdOf(res),
        duration_ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
      });
    });
    next();
  });
  app.use(helmet({ strictTransportSecurity: false })); // HSTS only over HTTPS: hsts() above
  app.use(requireJsonContentType());
  // bodies are read per route, after authentication and the caller's rate limit (http/route.ts)
  app.use(consoleProxy(context)); // /console/v1/admin/* and /console/v1/public/* (docs/console.md)
  mountRoutes(app, routeHost(context), ADMIN_ROUTES);
  app.get('/metrics', metricsEndpoint(config.METRICS_TOKEN)); // docs/observability.md "Scraping"
  if (deps.redis) {
    const board = createQueuesBoard({
      redis: deps.redis,
      prefix: config.REDIS_PREFIX,
      adminToken: config.ADMIN_API_TOKEN,
      guard: context.guard,
    });
    app.use(QUEUES_BOARD_PATH, ...board.handlers);
  }
  app.use('/docs', docsSite({ title: 'Admin API', openapiPath: '/openapi.json' }));
  app.use('/console', consoleSite(deps.consoleDir)); // docs/console.md "Build and serving"
  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  return app;
}
