// The OpenAPI side of a route definition (docs/architecture.md "Routes"): the operation is built from the
// same fields the router validates with, so the document and the router cannot disagree.
import {
  documentedQuery,
  errorResponses,
  ZIdempotencyKeyHeader,
  type OpenAPIRegistry,
  type ResponseConfig,
  type RouteConfig,
} from '@risk/contracts';
import type { z } from 'zod';
import type { RouteDefinition, RouteDoc, RouteSpec, Schema } from './route-spec';
import { withErrorExamples } from './route-examples';

/** `/assets/:fingerprint` → `/assets/{fingerprint}` */
export const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

/** A JSON media type, with its example when the route gives one (docs/architecture.md "Examples"). */
const json = (schema: z.ZodType, example?: unknown) => ({
  content: { 'application/json': { schema, ...(example !== undefined ? { example } : {}) } },
});

/**
 * The operationId of a route without one of its own: the method and the path's words, version segments left
 * out and parameters as `By<Name>` (`get /v1/assets/{fingerprint}` → `getAssetsByFingerprint`, `get /` → `getIndex`). Method and
 * path are unique per document, so the id is too.
 */
export function defaultOperationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((segment) => segment && !/^v\d+$/.test(segment))
    .flatMap((segment) => {
      const param = /^[:{](\w+)\}?$/.exec(segment);
      return param ? ['by', ...param[1]!.split('_')] : segment.split(/[^A-Za-z0-9]+/);
    })
    .filter(Boolean);
  return method + (words.length ? words : ['index']).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

export function operationOf<D, A>(
  spec: RouteSpec<D, A, Schema | undefined, Schema | undefined, Schema | undefined>,
  doc: RouteDoc,
  prefix: string,
): RouteConfig {
  const errors = new Set([
    ...spec.auth.errors,
    ...(doc.errors ?? []),
    ...(spec.idempotency ? [409, 413] : []),
    // a request body in another media type is refused before validation
    ...(spec.body || spec.streamBody ? [415] : []),
    // anything validated by a zod schema can be refused with 400 (e.g. ?force=maybe, an over-long path id)
    ...(spec.params || spec.query || spec.body ? [400] : []),
  ]);
  const example = doc.examples?.response;
  const ok: ResponseConfig = {
    description: doc.response?.description ?? 'success',
    ...(doc.response?.schema
      ? json(doc.response.schema, example)
      : doc.response?.content
        ? { content: withJsonExample(doc.response.content, example) }
        : {}),
  };
  const request: NonNullable<RouteConfig['request']> = {
    ...(spec.params ? { params: spec.params as NonNullable<RouteConfig['request']>['params'] } : {}),
    ...(spec.query ? { query: documentedQuery(spec.query) as NonNullable<RouteConfig['request']>['query'] } : {}),
    ...(spec.idempotency ? { headers: ZIdempotencyKeyHeader } : {}),
    ...(spec.body ? { body: json(spec.body, doc.examples?.request) } : {}),
    ...(spec.streamBody
      ? {
          body: {
            description: spec.streamBody.description,
            required: true,
            content: {
              [spec.streamBody.mediaType]: {
                schema: { type: 'string' as const, format: 'binary' },
                ...(doc.examples?.request !== undefined ? { example: doc.examples.request } : {}),
              },
            },
          },
        }
      : {}),
  };
  return {
    method: spec.method,
    path: prefix + openApiPath(spec.path),
    operationId: doc.operationId ?? defaultOperationId(spec.method, prefix + spec.path),
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    security: spec.auth.security,
    request,
    responses: {
      [spec.status ?? 200]: ok,
      ...withErrorExamples(
        errorResponses(...[...errors].filter((s) => !doc.otherResponses?.[s]).sort((a, b) => a - b)),
        { examples: doc.examples, security: spec.auth.security, hasBody: spec.body !== undefined },
      ),
      ...doc.otherResponses,
    },
  };
}

/** A content map whose application/json entry gets the route's example (other media types carry their own). */
function withJsonExample(content: NonNullable<ResponseConfig['content']>, example: unknown) {
  const jsonType = content['application/json'];
  if (example === undefined || !jsonType || '$ref' in jsonType) return content;
  return { ...content, 'application/json': { ...jsonType, example } };
}

/** Registers the routes' operations in `registry` (a child of the service's registry: one per document). */
export function registerRoutes<D>(
  registry: OpenAPIRegistry,
  routes: ReadonlyArray<RouteDefinition<D>>,
  prefix = '',
): void {
  for (const route of routes) {
    const operation = route.openapi(prefix);
    if (operation) registry.registerPath(operation);
  }
}
