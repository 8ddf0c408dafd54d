import type {
  ApiKeyAuthenticator,
  ApiKeyPrincipal,
  IdempotencyRequest,
  RequestGuard,
  Scope,
  StoredResponse,
} from '@risk/common';
import {
  ApiError,
  idempotencyMiddleware,
  idempotencyRequestOf,
  parseOrThrow,
  requestIdOf,
  requireScope,
  requireSecret,
  sendReplay,
} from '@risk/common';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { z } from 'zod';
import type { AppDeps } from '../deps';

/**
 * The route builder (CONVENTIONS.md "Requests and errors"): every /v1 route authenticates, checks
 * its scope, checks the Idempotency-Key header (POST), validates params/query/body with zod
 * (strict objects: unknown fields are 400 parameter_unknown), claims the idempotency key, and only
 * then calls the handler with typed input. Handlers return the response body; the builder sends it.
 *
 * Order of checks (research/reliability.md §3.3, docs/errors.md "Order of checks"): per-IP
 * failed-auth block and auth → the key's rate limit → scope → key present and a UUID → body read
 * and parsed → validation → idempotency claim → handler. Nothing reads the body before the key is
 * known and within its limit (docs/security.md "Rate limits and caps"), and a validation 400 or a
 * 429 never touches the idempotency table.
 */

/** Body limits: 500 signals with manifests need more room than any other request. */
export const BULK_BODY_LIMIT = 10 * 1024 * 1024;
export const BODY_LIMIT = 2 * 1024 * 1024;
export interface HandlerContext<P, Q, B> {
  deps: AppDeps;
  auth: ApiKeyPrincipal;
  requestId: string;
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
  /** POST routes with `idempotency: 'inline'`: the key's facts, for the handler's own claim */
  idempotency?: IdempotencyRequest;
}

/** A body the handler has already serialised (and, for inline idempotency, stored with its claim). */
export class SerializedResponse {
  constructor(
    readonly status: number,
    readonly json: string,
  ) {}
}

/** Inline idempotency: the key was taken by a completed request, whose response is replayed. */
export class ReplayResponse {
  constructor(readonly stored: StoredResponse) {}
}

/** A non-JSON response (AI-BOM tag-value text, SPDX JSON with its own media type). */
export class RawResponse {
  constructor(
    readonly contentType: string,
    readonly body: string,
    readonly status = 200,
  ) {}
}

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteSpec<
  PS extends Schema | undefined,
  QS extends Schema | undefined,
  BS extends Schema | undefined,
> {
  method: 'get' | 'post';
  path: string;
  scope: Scope;
  params?: PS;
  query?: QS;
  body?: BS;
  /** success status, 200 unless given */
  status?: number;
  /**
   * POST only. 'middleware' (default): the builder claims the key before the handler and stores the
   * 2xx response after it. 'inline': the handler claims the key and stores the response in its own
   * transaction (one round trip, one commit) and returns a SerializedResponse or ReplayResponse.
   */
  idempotency?: 'middleware' | 'inline';
  /**
   * POST with 'middleware' idempotency only. The response carries a secret shown once (a webhook
   * signing secret): the body kept for replay is encrypted with SECRETS_KEY (required, like the
   * secret itself) and decrypted when a retry replays it. Without it the body is stored as plaintext.
   */
  storeEncrypted?: boolean;
  /** the bulk route: BULK_BODY_LIMIT instead of BODY_LIMIT, and it counts RATE_LIMIT_BULK_WEIGHT requests */
  bulk?: boolean;
  handler: (ctx: HandlerContext<Out<PS>, Out<QS>, Out<BS>>) => Promise<unknown>;
}

export interface RouteDefinition {
  method: 'get' | 'post';
  path: string;
  build(deps: AppDeps, authenticator: ApiKeyAuthenticator): RequestHandler;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function defineRoute<
  PS extends Schema | undefined = undefined,
  QS extends Schema | undefined = undefined,
  BS extends Schema | undefined = undefined,
>(spec: RouteSpec<PS, QS, BS>): RouteDefinition {
  return {
    method: spec.method,
    path: spec.path,
    build(deps, authenticator) {
      const inline = spec.method === 'post' && spec.idempotency === 'inline';
      if (spec.storeEncrypted && (spec.method !== 'post' || inline)) {
        throw new Error(`${spec.path}: storeEncrypted needs a POST route with middleware idempotency`);
      }
      // SECRETS_KEY is read per request: a route that stores encrypted fails without it, before the claim
      const idempotency = idempotencyMiddleware(
        deps.pool,
        spec.storeEncrypted ? () => ({ secretsKey: requireSecret(deps.config, 'SECRETS_KEY') }) : undefined,
        { leaseMs: deps.config.IDEMPOTENCY_LEASE_MS, logger: deps.logger },
      );
      const readBody = spec.method === 'post' ? bodyReader(spec.bulk ? BULK_BODY_LIMIT : BODY_LIMIT) : undefined;
      const guard = routeGuard(deps);
      const weight = spec.bulk ? guard.bulkWeight : 1;
      return async (req, res) => {
        await authenticateAndLimit(guard, authenticator, req, res, weight);
        const auth = requireScope(res, spec.scope);
        if (spec.method === 'post') checkIdempotencyHeader(req);
        if (readBody) await readBody(req, res);
        const params = (spec.params ? parseOrThrow(spec.params, { ...req.params }) : undefined) as Out<PS>;
        const query = (spec.query ? parseOrThrow(spec.query, req.query ?? {}) : undefined) as Out<QS>;
        const body = (spec.body ? parseOrThrow(spec.body, req.body ?? {}) : undefined) as Out<BS>;
        let idem: IdempotencyRequest | undefined;
        if (inline) idem = idempotencyRequestOf(req, res, deps.config.IDEMPOTENCY_LEASE_MS);
        else if (spec.method === 'post') {
          let proceed = false;
          await idempotency(req, res, () => {
            proceed = true;
          });
          if (!proceed) return; // replayed the stored response
        }
        const result = await spec.handler({
          deps,
          auth,
          requestId: requestIdOf(res),
          params,
          query,
          body,
          req,
          res,
          idempotency: idem,
        });
        if (result instanceof SerializedResponse) {
          if (idem) res.setHeader('Original-Request', idem.requestId);
          res.status(result.status).type('application/json').send(result.json);
          return;
        }
        if (result instanceof ReplayResponse) {
          sendReplay(res, result.stored);
          return;
        }
        if (inline)
          throw new Error(
            `${spec.path}: an inline-idempotency handler must return a SerializedResponse or ReplayResponse`,
          );
        if (result instanceof RawResponse) {
          res.status(result.status).type(result.contentType).send(result.body);
          return;
        }
        res.status(spec.status ?? 200).json(result);
      };
    },
  };
}

/** The guard createApp put in the routers' deps (also for routes written by hand: DELETE /v1/webhooks/:id). */
export function routeGuard(deps: AppDeps): RequestGuard {
  if (!deps.guard) throw new Error('the /v1 routes need deps.guard (createApp builds it)');
  return deps.guard;
}

/**
 * Authenticates the request (behind the per-IP failed-auth block) and counts it against its key's
 * limit (`live` or `test`). Sets `res.locals.auth`. Every authenticated /v1 route runs this first.
 */
export async function authenticateAndLimit(
  guard: RequestGuard,
  authenticator: ApiKeyAuthenticator,
  req: Request,
  res: Response,
  weight = 1,
): Promise<ApiKeyPrincipal> {
  const auth = await guard.authenticate(req, () => authenticator.authenticate(req.headers.authorization));
  res.locals.auth = auth;
  await guard.limit(res, auth.livemode ? 'live' : 'test', auth.key_id, weight);
  return auth;
}

/** body-parser's JSON reader as a promise; none for a request without a JSON body (req.body stays undefined). */
function bodyReader(limit: number): (req: Request, res: Response) => Promise<void> {
  const parse = express.json({ limit });
  return (req, res) =>
    new Promise<void>((resolve, reject) => {
      void parse(req, res, (err?: unknown) => (err ? reject(err as Error) : resolve()));
    });
}

function checkIdempotencyHeader(req: Request): void {
  const header = req.headers['idempotency-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (!key) {
    throw new ApiError('idempotency_key_missing', {
      param: 'Idempotency-Key',
      message: "Every POST needs an 'Idempotency-Key: <uuid>' header.",
    });
  }
  if (!UUID.test(key)) {
    throw new ApiError('idempotency_key_invalid', {
      param: 'Idempotency-Key',
      message: 'Idempotency-Key must be a UUID.',
    });
  }
}

/** Registers route definitions on a router (in order: literal paths before parameterised ones). */
export function mountRoutes(
  router: Router,
  deps: AppDeps,
  authenticator: ApiKeyAuthenticator,
  routes: RouteDefinition[],
): Router {
  for (const route of routes) router[route.method](route.path, route.build(deps, authenticator));
  return router;
}
