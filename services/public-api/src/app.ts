import { docsSite } from '@risk/common/docs-site';
import {
  ApiKeyAuthenticator,
  errorHandler,
  notFoundHandler,
  parseQueryString,
  rateLimitSettings,
  RequestGuard,
  requestIdMiddleware,
  requireJsonContentType,
  mountRoutes,
} from '@risk/common/http';
import { hsts } from '@risk/common/server';
import { httpMetrics, metricsEndpoint } from '@risk/common/observability';
import { withTimeout } from '@risk/common/queue';
import express, { Router, type Express, type RequestHandler } from 'express';
import { pingDatabase } from '@risk/db';
import type { AppDeps, AppState } from './deps';
import { routeHost } from './http/route';
import { precomputedHelmet } from './http/security-headers';
import { openapiRoutes } from './routes/openapi';
import { V1_RESOURCES } from './routes';

export const SERVICE_NAME = 'Risk Intelligence API';
export const SERVICE_VERSION = '1.0.0';

/** Body limits (read by the route builder, after authentication: http/route.ts). */
export { BODY_LIMIT, BULK_BODY_LIMIT } from './http/route';
/**
 * 500 fingerprints of 64 characters make a ~40 KB request line, and 500 name keys with version,
 * ecosystem and a fallback fingerprint up to ~90 KB; Node's default header limit is 16 KiB.
 */
export const MAX_HEADER_SIZE = 128 * 1024;

/** `POST /v1/artifacts`: the routes whose body is a stream of bytes, not JSON (literal paths only). */
const STREAMED_ROUTES = new Set(
  V1_RESOURCES.flat()
    .filter((route) => route.streamBody !== undefined)
    .map((route) => `${route.method.toUpperCase()} /v1${route.path.toLowerCase()}`),
);

export interface PublicApiApp extends Express {
  locals: Express['locals'] & { state: AppState; authenticator: ApiKeyAuthenticator };
}

/** Runs middleware one after another as one express layer; an error (or a rejected promise, as express 5 treats it) skips the rest. */
function inSequence(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let i = 0;
    const step = (err?: unknown): void => {
      // express passes null or undefined for "no error" (a router left with next('router') ends with null)
      if (err != null) next(err);
      else if (i === handlers.length) next();
      else {
        const result: unknown = handlers[i++]!(req, res, step);
        if (result instanceof Promise) result.catch(step);
      }
    };
    step();
  };
}

/**
 * Sends a /v1 request straight to the routers that serve its first path segment (`/assets/…` → the
 * assets router) instead of walking every router's layers in turn: express matches layer by layer,
 * and on the hottest GETs that walk was the largest share of the router's time. Each router's
 * segments come from its own route layers, so a new route needs nothing here.
 */
function v1Dispatcher(routers: Router[]): RequestHandler {
  const routersOf = new Map<string, Router[]>();
  for (const router of routers) {
    for (const layer of (router as unknown as { stack: Array<{ route?: { path: string } }> }).stack) {
      const path = layer.route?.path;
      if (typeof path !== 'string') throw new Error('v1 routers hold only routes with string paths');
      const segment = firstSegment(path).toLowerCase();
      if (!/^[a-z0-9._~-]+$/.test(segment))
        throw new Error(`v1 route ${path}: its first path segment must be a literal`);
      const list = routersOf.get(segment) ?? [];
      if (!list.includes(router)) list.push(router);
      routersOf.set(segment, list);
    }
  }
  // most segments have one router: it handles the request itself, without a sequence around it
  const bySegment = new Map<string, RequestHandler>(
    [...routersOf].map(([segment, list]) => [segment, list.length === 1 ? list[0]! : inSequence(...list)]),
  );
  const dispatch: RequestHandler & { stack?: unknown[] } = (req, res, next) => {
    // express matches paths case-insensitively: so does this
    const handle = bySegment.get(firstSegment(req.url).toLowerCase());
    if (handle) void handle(req, res, next);
    else next();
  };
  // the routers' layers, where an express Router keeps them, so route introspection (the OpenAPI test) sees every route
  dispatch.stack = routers.flatMap((router) => (router as unknown as { stack: unknown[] }).stack);
  return dispatch;
}

/** `/assets/x?y` → `assets` (the raw, still-encoded segment: literal route segments need no decoding) */
function firstSegment(url: string): string {
  const end = url.slice(1).search(/[/?]/);
  return end === -1 ? url.slice(1) : url.slice(1, end + 1);
}

/** The express app for the public API (no listen: main.ts and tests do that). */
export function createApp(deps: AppDeps): PublicApiApp {
  const app = express() as PublicApiApp;
  const authenticator = deps.authenticator ?? new ApiKeyAuthenticator(deps.prisma);
  // rate limits count on the producer's auto-pipelined connection (fail-fast, no offline queue) under its key prefix;
  // the console's public door is recognised, so its failed authentications count per console session, not against
  // admin-api's address (docs/security.md "The console's public door")
  const guard =
    deps.guard ??
    new RequestGuard(
      { ...rateLimitSettings(deps.config), consoleDoorKey: deps.config.SECRETS_KEY },
      {
        redis: deps.producer.limiterConnection,
        keyPrefix: deps.config.REDIS_PREFIX,
        logger: deps.logger,
      },
    );
  const routeDeps: AppDeps = { ...deps, authenticator, guard };
  const state: AppState = { shuttingDown: false };
  app.locals.state = state;
  app.locals.authenticator = authenticator;

  app.set('query parser', parseQueryString);
  app.set('trust proxy', deps.config.TRUST_PROXY);
  app.set('etag', false);
  app.disable('x-powered-by');
  // The request prelude as ONE layer (each express layer costs a match and a next() on every request):
  // request id (no AsyncLocalStorage: every in-request log line here, errorHandler's, names the id
  // itself), helmet's default headers computed once and the JSON content-type rule (a header check).
  // No body is read here: each route reads its own after authentication and its rate limit
  // (@risk/common defineRoute), so an unauthenticated or throttled request never costs a parse.
  app.use(
    inSequence(
      httpMetrics(), // docs/observability.md
      requestIdMiddleware({ asyncContext: false }),
      // HSTS only over HTTPS (hsts below), not helmet's on every response
      precomputedHelmet({ strictTransportSecurity: false }),
      hsts(deps.config.HSTS_MAX_AGE_SECONDS),
      // a route that takes a stream of bytes (an artifact upload) checks its own media type
      requireJsonContentType({ streamed: (req) => STREAMED_ROUTES.has(`${req.method} ${req.path.toLowerCase()}`) }),
    ),
  );

  // /v1 first: the hot routes do not walk the root routes below
  // one router per resource (routes/index.ts), each from its route definitions
  const host = routeHost(routeDeps);
  const routers = [openapiRoutes, ...V1_RESOURCES].map((routes) => mountRoutes(Router(), host, routes));
  app.use('/v1', v1Dispatcher(routers));

  app.get('/', (_req, res) => {
    res.json({
      service: SERVICE_NAME,
      status: 'running',
      version: SERVICE_VERSION,
      api_version: 'v1',
      documentation: '/v1/openapi.json',
    });
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const [postgres, redis] = await Promise.all([
      withTimeout(pingDatabase(deps.pool), 1000, 'postgres ping').then(
        () => 'ok' as const,
        () => 'unavailable' as const,
      ),
      deps.producer.ping(1000).then((ok) => (ok ? ('ok' as const) : ('unavailable' as const))),
    ]);
    const ready = !state.shuttingDown && postgres === 'ok' && redis === 'ok';
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'unavailable',
      shutting_down: state.shuttingDown,
      checks: { postgres, redis },
    });
  });

  app.get('/metrics', metricsEndpoint(deps.config.METRICS_TOKEN)); // docs/observability.md "Scraping"
  app.use('/docs', docsSite({ title: SERVICE_NAME, openapiPath: '/v1/openapi.json' }));

  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}
