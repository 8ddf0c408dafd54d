// What a route definition says (route.ts builds the handler and the OpenAPI operation from it; docs/architecture.md
// "Routes"): the method and path, the auth mode, the schemas, idempotency, the documentation, and the responses a
// handler may return besides a JSON body.
import type { ResponseConfig, RouteConfig } from '@risk/contracts';
import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import type { ErrorCode } from '../errors';
import type { Logger } from '../logger';
import type {
  IdempotencyDb,
  IdempotencyOwner,
  IdempotencyRequest,
  IdempotencyStorage,
  StoredResponse,
} from './idempotency';
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
  /**
   * Whose Idempotency-Keys an idempotent route's keys are scoped to, for a principal that is not an API key (the
   * admin API's tenant token); absent: the API key's org and mode (`res.locals.auth`).
   */
  idempotencyOwner?(auth: A): IdempotencyOwner;
}

/** A service's idempotency store: what both the middleware and inline-idempotency routes claim keys in. */
export interface RouteIdempotency {
  /** the connections holding `idempotency_keys` */
  db: IdempotencyDb;
  /** how long an in-flight claim holds its key (docs/reliability.md), for every idempotent route */
  leaseMs: number;
  logger: Logger;
  /** the encryption of stored responses, for routes with `storeEncrypted` (read per request) */
  encryptedStorage?: () => IdempotencyStorage;
}

/** A service's part in running its routes: body limits and the idempotency store. */
export interface RouteHost<D> {
  deps: D;
  bodyLimit(route: RouteInfo): number;
  idempotency?: RouteIdempotency;
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

/**
 * A JSON body with a status chosen by the handler (an upload answers 200, 201 or 202), sent through `res.json` so
 * middleware idempotency stores it like any other JSON response. `T` is the body's type, which a route's
 * handler result checks against its response schema like a plain JSON body.
 */
export class JsonResponse<T = unknown> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
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
export interface RouteDoc<RS extends Schema = Schema> {
  summary: string;
  /** the operation's id; derived from the method and path when absent (route-openapi.ts defaultOperationId) */
  operationId?: string;
  description?: string;
  /** the success response: a JSON schema, or a content map for several media types */
  response?: { description: string; schema?: RS; content?: ContentMap<RS> };
  /** error statuses beyond the auth mode's (and an idempotent POST's 409 and 413) */
  errors?: readonly number[];
  /** responses that are not in the error envelope (a probe's 503 carries its own body) */
  otherResponses?: Record<number, ResponseConfig>;
  /**
   * Examples shown in the document (docs/architecture.md "Examples"): the request body and the success response
   * (JSON). Every documented error status gets a typical error envelope by default (route-openapi.ts); `errors`
   * replaces it for a status where the route has a more telling one. A test fails when an operation lacks a
   * request or response example, or when an example does not match its schema (packages/sdk/test/openapi-examples.test.ts).
   */
  examples?: RouteExamples;
}

/** A content map; its `application/json` schema, when it has one, types the handler's JSON body like `schema`. */
export type ContentMap<RS extends Schema> = ResponseConfig['content'] & {
  'application/json'?: NonNullable<ResponseConfig['content']>[string] & { schema: RS };
};

export interface RouteExamples {
  request?: unknown;
  /** the JSON success body; a route with several media types puts the others' examples in `response.content` */
  response?: unknown;
  errors?: Record<number, { code: ErrorCode; message: string; param?: string }>;
}

export type Schema = z.ZodType;
export type SchemaOutput<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * What a handler may return: a JSON body its `doc.response.schema` accepts (the schema's input type: the JSON a
 * client parses with it), so a handler that drifts from its documented response does not compile; or a response
 * it builds itself. A route without a response schema (a content map, no body, no document) gets `z.ZodUnknown`.
 * TypeScript widens a literal returned inline against a type it is still inferring, so a handler returning
 * `{ status: 'running' }` for a `z.literal('running')` writes `'running' as const` (a const assertion, not a cast).
 */
export type HandlerResult<RS extends Schema> =
  | z.input<RS>
  | SerializedResponse
  | ReplayResponse
  | JsonResponse<z.input<RS>>
  | RawResponse;

export interface RouteSpec<
  D,
  A,
  PS extends Schema | undefined,
  QS extends Schema | undefined,
  BS extends Schema | undefined,
  RS extends Schema = Schema,
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
  /**
   * The body is a stream of bytes in this media type (an artifact upload): the builder neither reads nor parses it
   * (the handler reads `req` under its own cap) and refuses another media type with 415.
   */
  streamBody?: { mediaType: string; description: string };
  /** the OpenAPI operation; `false` for a route the document leaves out (the document itself) */
  doc: RouteDoc<RS> | false;
  handler: (
    ctx: HandlerContext<D, A, SchemaOutput<PS>, SchemaOutput<QS>, SchemaOutput<BS>>,
  ) => HandlerResult<RS> | Promise<HandlerResult<RS>>;
}

export interface RouteDefinition<D> {
  method: HttpMethod;
  path: string;
  /** the auth mode's label and the summary: the admin API's endpoints map */
  label: string;
  /** the media type of a streamed body (spec.streamBody): the app's JSON content-type rule lets it through */
  streamBody: string | undefined;
  summary: string | undefined;
  /** the OpenAPI operation under `prefix` (undefined for an undocumented route) */
  openapi(prefix: string): RouteConfig | undefined;
  build(host: RouteHost<D>): RequestHandler;
}
