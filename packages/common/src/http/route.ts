import type { ResponseConfig, RouteConfig } from '@risk/contracts';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { ApiError } from '../errors';
import { idempotencyRequestOf, sendReplay, type IdempotencyRequest, type StoredResponse } from './idempotency';
import { requestIdOf } from './request';
import { operationOf } from './route-openapi';
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

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What an auth mode and a service's host see of a route. */
export interface RouteInfo {
  method: HttpMethod;
  path: string;
  /** the bulk route: a larger body limit and a heavier rate-limit weight (the service decides both) */
  bulk: boolean;
}

/**
 * How a route authenticates, pluggable per service (the public API's API key with or without a scope,
 * admin-api's admin and tenant tokens, public routes). `run` authenticates and rate-limits the request,
 * then calls `next` with the principal; a mode may wrap `next` (a public route whose handler checks
 * its own credential runs inside the failed-auth block).
 */
export interface AuthMode<D, A> {
  /** how the admin API's endpoints map names the credential: 'admin', 'tenant', 'none', or a scope */
  label: string;
  /** the OpenAPI security requirement ([] for a public route) */
  security: Array<Record<string, string[]>>;
  /** error statuses every route under this mode can answer (401 adds 429: errorResponses) */
  errors: readonly number[];
  run<T>(input: { deps: D; req: Request; res: Response; route: RouteInfo }, next: (auth: A) => Promise<T>): Promise<T>;
}

/** A service's part in running its routes: body limits and the idempotency middleware. */
export interface RouteHost<D> {
  deps: D;
  bodyLimit(route: RouteInfo): number;
  /** the claim-and-store middleware of a POST with `idempotency: 'middleware'` */
  idempotency?(route: RouteInfo & { storeEncrypted: boolean }): RequestHandler;
  /** how long an in-flight idempotency claim holds its key (docs/reliability.md) */
  idempotencyLeaseMs?: number;
}

export interface HandlerContext<D, A, P, Q, B> {
  deps: D;
  auth: A;
  requestId: string;
  params: P;
  query: Q;
  body: B;
  req: Request;
  res: Response;
  /** routes with `idempotency: 'inline'`: the key's facts, for the handler's own claim */
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

/** The OpenAPI part of a route definition; the parameters, body and security come from the route itself. */
export interface RouteDoc {
  summary: string;
  /** the operation's id; derived from the method and path when absent (route-openapi.ts defaultOperationId) */
  operationId?: string;
  description?: string;
  /** the success response: a JSON schema, or a content map for several media types */
  response?: { description: string; schema?: z.ZodType; content?: ResponseConfig['content'] };
  /** error statuses beyond the auth mode's (and an idempotent POST's 409 and 413) */
  errors?: readonly number[];
  /** responses that are not in the error envelope (a probe's 503 carries its own body) */
  otherResponses?: Record<number, ResponseConfig>;
}

export type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteSpec<
  D,
  A,
  PS extends Schema | undefined,
  QS extends Schema | undefined,
  BS extends Schema | undefined,
> {
  method: HttpMethod;
  /** express syntax (`/assets/:fingerprint`); the document shows `{fingerprint}` */
  path: string;
  auth: AuthMode<D, A>;
  params?: PS;
  query?: QS;
  body?: BS;
  /** success status, 200 unless given */
  status?: number;
  /**
   * POST only. 'middleware': the host's middleware claims the key before the handler and stores the 2xx
   * response after it. 'inline': the handler claims the key and stores the response in its own
   * transaction and returns a SerializedResponse or ReplayResponse. Absent: no Idempotency-Key.
   */
  idempotency?: 'middleware' | 'inline';
  /** 'middleware' idempotency: the stored response holds a secret shown once, so it is kept encrypted */
  storeEncrypted?: boolean;
  /** the bulk route: the host's larger body limit and a heavier rate-limit weight */
  bulk?: boolean;
  /** the OpenAPI operation; `false` for a route the document leaves out (the document itself) */
  doc: RouteDoc | false;
  handler: (ctx: HandlerContext<D, A, Out<PS>, Out<QS>, Out<BS>>) => unknown;
}

export interface RouteDefinition<D> {
  method: HttpMethod;
  path: string;
  /** the auth mode's label and the summary: the admin API's endpoints map */
  label: string;
  summary: string | undefined;
  /** the OpenAPI operation under `prefix` (undefined for an undocumented route) */
  openapi(prefix: string): RouteConfig | undefined;
  build(host: RouteHost<D>): RequestHandler;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function defineRoute<
  D,
  A,
  PS extends Schema | undefined = undefined,
  QS extends Schema | undefined = undefined,
  BS extends Schema | undefined = undefined,
>(spec: RouteSpec<D, A, PS, QS, BS>): RouteDefinition<D> {
  if (spec.idempotency && spec.method !== 'post') throw new Error(`${spec.path}: idempotency is for POST routes`);
  if (spec.storeEncrypted && spec.idempotency !== 'middleware')
    throw new Error(`${spec.path}: storeEncrypted needs middleware idempotency`);
  const info: RouteInfo = { method: spec.method, path: spec.path, bulk: spec.bulk ?? false };
  return {
    method: spec.method,
    path: spec.path,
    label: spec.auth.label,
    summary: spec.doc ? spec.doc.summary : undefined,
    openapi: (prefix) => (spec.doc ? operationOf(spec, spec.doc, prefix) : undefined),
    build(host) {
      const inline = spec.idempotency === 'inline';
      const claim =
        spec.idempotency === 'middleware'
          ? requireIdempotencyMiddleware(host, { ...info, storeEncrypted: spec.storeEncrypted ?? false })
          : undefined;
      const readBody = spec.method === 'get' ? undefined : bodyReader(host.bodyLimit(info));
      return async (req, res) => {
        await spec.auth.run({ deps: host.deps, req, res, route: info }, async (auth) => {
          if (spec.idempotency) checkIdempotencyHeader(req);
          if (readBody) await readBody(req, res);
          const params = (spec.params ? parseOrThrow(spec.params, { ...req.params }) : undefined) as Out<PS>;
          const query = (spec.query ? parseOrThrow(spec.query, req.query ?? {}) : undefined) as Out<QS>;
          const body = (spec.body ? parseOrThrow(spec.body, req.body ?? {}) : undefined) as Out<BS>;
          const idem = inline ? idempotencyRequestOf(req, res, host.idempotencyLeaseMs) : undefined;
          if (claim) {
            let proceed = false;
            await claim(req, res, () => {
              proceed = true;
            });
            if (!proceed) return; // replayed the stored response
          }
          const ctx = { deps: host.deps, auth, requestId: requestIdOf(res), params, query, body, req, res };
          send(res, spec, await spec.handler(idem ? { ...ctx, idempotency: idem } : ctx), idem);
        });
      };
    },
  };
}

function send(
  res: Response,
  spec: { path: string; status?: number; idempotency?: string },
  result: unknown,
  idem?: IdempotencyRequest,
): void {
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
  if (!host.idempotency) throw new Error(`${route.path}: this service has no idempotency store`);
  return host.idempotency(route);
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
