import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { ApiError } from '../errors';
import { jsonBodyReader } from './body-depth';
import { idempotencyMiddleware, idempotencyRequestOf, sendReplay, type IdempotencyRequest } from './idempotency';
import { requestIdOf } from './request';
import { operationOf } from './route-openapi';
import {
  JsonResponse,
  RawResponse,
  ReplayResponse,
  SerializedResponse,
  type HttpMethod,
  type SchemaOutput,
  type RouteDefinition,
  type RouteHost,
  type RouteInfo,
  type RouteSpec,
  type Schema,
} from './route-spec';
import { parseOrThrow } from './validate';

/**
 * The route builder both APIs use (docs/architecture.md "Routes"). One definition gives the express
 * handler and the OpenAPI operation, so the router and the document cannot disagree. The handler runs
 * after, in this order (docs/errors.md "Order of checks"): the auth mode (per-IP failed-auth block,
 * credential, rate limit, scope) → the Idempotency-Key header (idempotent POSTs) → the body, read only
 * now → zod validation of params, query and body (strict objects: unknown fields are 400
 * parameter_unknown) → the idempotency claim → the handler. Nothing reads the body before the caller
 * is known and within its limit, and a validation 400 or a 429 never touches the idempotency table.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function defineRoute<
  D,
  A,
  PS extends Schema | undefined = undefined,
  QS extends Schema | undefined = undefined,
  BS extends Schema | undefined = undefined,
  RS extends Schema = z.ZodUnknown,
>(spec: RouteSpec<D, A, PS, QS, BS, RS>): RouteDefinition<D> {
  if (spec.idempotency && spec.method !== 'post') throw new Error(`${spec.path}: idempotency is for POST routes`);
  if (spec.storeEncrypted && spec.idempotency !== 'middleware')
    throw new Error(`${spec.path}: storeEncrypted needs middleware idempotency`);
  const info: RouteInfo = { method: spec.method, path: spec.path, bulk: spec.bulk ?? false };
  return {
    method: spec.method,
    path: spec.path,
    label: spec.auth.label,
    streamBody: spec.streamBody?.mediaType,
    summary: spec.doc ? spec.doc.summary : undefined,
    openapi: (prefix) => (spec.doc ? operationOf(spec, spec.doc, prefix) : undefined),
    build(host) {
      const inline = spec.idempotency === 'inline';
      const claim =
        spec.idempotency === 'middleware'
          ? requireIdempotencyMiddleware(host, { ...info, storeEncrypted: spec.storeEncrypted ?? false })
          : undefined;
      const readBody = spec.method === 'get' || spec.streamBody ? undefined : jsonBodyReader(host.bodyLimit(info));
      return async (req, res) => {
        await spec.auth.run({ deps: host.deps, req, res, route: info }, async (auth) => {
          if (spec.idempotency) checkIdempotencyHeader(req);
          if (spec.streamBody && req.is(spec.streamBody.mediaType) === false)
            throw new ApiError('unsupported_media_type', {
              message: `Send the request body as ${spec.streamBody.mediaType}.`,
            });
          if (spec.idempotency && spec.auth.idempotencyOwner)
            res.locals.idempotencyOwner = spec.auth.idempotencyOwner(auth);
          if (readBody) await readBody(req, res);
          const params = (spec.params ? parseOrThrow(spec.params, { ...req.params }) : undefined) as SchemaOutput<PS>;
          const query = (spec.query ? parseOrThrow(spec.query, req.query ?? {}) : undefined) as SchemaOutput<QS>;
          const body = (spec.body ? parseOrThrow(spec.body, req.body ?? {}) : undefined) as SchemaOutput<BS>;
          const idem = inline ? idempotencyRequestOf(req, res, host.idempotency?.leaseMs) : undefined;
          if (claim) {
            let proceed = false;
            await claim(req, res, () => {
              proceed = true;
            });
            if (!proceed) return; // replayed the stored response
          }
          const ctx = { deps: host.deps, auth, requestId: requestIdOf(res), params, query, body, req, res };
          send(res, spec, { result: await spec.handler(idem ? { ...ctx, idempotency: idem } : ctx), idem });
        });
      };
    },
  };
}

function send(
  res: Response,
  spec: { path: string; status?: number; idempotency?: string },
  outcome: { result: unknown; idem?: IdempotencyRequest },
): void {
  const { result, idem } = outcome;
  if (result instanceof SerializedResponse) {
    if (idem) res.setHeader('Original-Request', idem.requestId);
    res.status(result.status).type('application/json').send(result.json);
    return;
  }
  if (result instanceof ReplayResponse) {
    sendReplay(res, result.stored);
    return;
  }
  if (spec.idempotency === 'inline')
    throw new Error(`${spec.path}: an inline-idempotency handler must return a SerializedResponse or ReplayResponse`);
  if (result instanceof JsonResponse) {
    res.status(result.status).json(result.body);
    return;
  }
  if (result instanceof RawResponse) {
    res.status(result.status).type(result.contentType).send(result.body);
    return;
  }
  res.status(spec.status ?? 200).json(result);
}

function requireIdempotencyMiddleware<D>(
  host: RouteHost<D>,
  route: RouteInfo & { storeEncrypted: boolean },
): RequestHandler {
  const store = host.idempotency;
  if (!store) throw new Error(`${route.path}: this service has no idempotency store`);
  if (route.storeEncrypted && !store.encryptedStorage)
    throw new Error(`${route.path}: storeEncrypted needs the service's encryptedStorage`);
  return idempotencyMiddleware(store.db, route.storeEncrypted ? store.encryptedStorage : undefined, {
    leaseMs: store.leaseMs,
    logger: store.logger,
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

/** What routes are mounted on: an express Router or the app itself. */
export type RouteTarget = { [M in HttpMethod]: (path: string, handler: RequestHandler) => unknown };

/** Registers route definitions on a router (or app), in order (literal paths before parameterised ones). */
export function mountRoutes<D, T extends RouteTarget>(
  target: T,
  host: RouteHost<D>,
  routes: ReadonlyArray<RouteDefinition<D>>,
): T {
  for (const route of routes) target[route.method](route.path, route.build(host));
  return target;
}
