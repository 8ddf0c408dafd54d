import {
  ApiKeyAuthenticator,
  ApiError,
  errorHandler,
  notFoundHandler,
  parseQueryString,
  requestIdMiddleware,
  requireJsonContentType,
  withTimeout,
} from '@risk/common';
import express, { type Express, type RequestHandler, type Router } from 'express';
import type { AppDeps, AppState } from './deps';
import { precomputedHelmet } from './http/security-headers';
import { assetsRouter } from './routes/assets';
import { eventsRouter } from './routes/events';
import { openapiRouter } from './routes/openapi';
import { signalsRouter } from './routes/signals';
import { threatsRouter } from './routes/threats';
import { webhooksRouter } from './routes/webhooks';

export const SERVICE_NAME = 'Risk Intelligence API';
export const SERVICE_VERSION = '1.0.0';

/** Body limits: 500 signals with manifests need more room than any other request. */
export const BULK_BODY_LIMIT = 10 * 1024 * 1024;
export const BODY_LIMIT = 2 * 1024 * 1024;
/**
 * 500 fingerprints of 64 characters make a ~40 KB request line, and 500 name keys with version,
 * ecosystem and a fallback fingerprint up to ~90 KB; Node's default header limit is 16 KiB.
 */
export const MAX_HEADER_SIZE = 128 * 1024;

/**
 * The /v1 routers, in mounting order. Adding a resource is one line here: a function
 * `(deps, authenticator) => Router` (see routes/signals.ts for the pattern with defineRoute).
 */
type V1RouterFactory = (deps: AppDeps, authenticator: ApiKeyAuthenticator) => Router;
const V1_ROUTERS: V1RouterFactory[] = [
  openapiRouter,
  signalsRouter,
  assetsRouter,
  threatsRouter,
  webhooksRouter,
  eventsRouter,
];

export interface PublicApiApp extends Express {
  locals: Express['locals'] & { state: AppState; authenticator: ApiKeyAuthenticator };
}

/**
 * No GET route reads a body, but clients often send `Content-Type: application/json` and
 * `Content-Length: 0` on every request, which makes body-parser stream and parse an empty body
 * (several async hops) on the hottest read paths. GET and HEAD skip the parser.
 */
function skipForGet(parser: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      next();
      return;
    }
    parser(req, res, next);
  };
}

/** The express app for the public API (no listen: main.ts and tests do that). */
export function createApp(deps: AppDeps): PublicApiApp {
  const app = express() as PublicApiApp;
  const authenticator = deps.authenticator ?? new ApiKeyAuthenticator(deps.prisma);
  const state: AppState = { shuttingDown: false };
  app.locals.state = state;
  app.locals.authenticator = authenticator;

  app.set('query parser', parseQueryString);
  app.set('trust proxy', deps.config.TRUST_PROXY);
  app.set('etag', false);
  // no AsyncLocalStorage per request: every in-request log line here (errorHandler) names the request id itself
  app.use(requestIdMiddleware({ asyncContext: false }));
  app.disable('x-powered-by');
  app.use(precomputedHelmet()); // helmet's default headers, computed once
  app.use(requireJsonContentType());
  app.use('/v1/signals/bulk', skipForGet(express.json({ limit: BULK_BODY_LIMIT })));
  app.use(skipForGet(express.json({ limit: BODY_LIMIT })));

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
      withTimeout(deps.pool.query('SELECT 1'), 1000, 'postgres ping').then(
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

  const v1 = express.Router();
  for (const makeRouter of V1_ROUTERS) v1.use(makeRouter(deps, authenticator));
  app.use('/v1', v1);

  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}

export { ApiError };
