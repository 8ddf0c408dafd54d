import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { ZErrorEnvelope } from './common';

/**
 * Two registries, one per service. Route modules under public/ and admin/ register their paths at
 * import time; the services serve the generated documents at /v1/openapi.json and /openapi.json.
 */
export const publicRegistry = new OpenAPIRegistry();
export const adminRegistry = new OpenAPIRegistry();

publicRegistry.registerComponent('securitySchemes', 'apiKey', {
  type: 'http',
  scheme: 'bearer',
  description: 'API key: `Authorization: Bearer rk_live_…` (or rk_test_…)',
});
publicRegistry.register('ErrorEnvelope', ZErrorEnvelope);
adminRegistry.register('ErrorEnvelope', ZErrorEnvelope);

/** Standard error responses for a route, each in the envelope. */
export function errorResponses(...statuses: number[]) {
  const text: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    409: 'conflict_error',
    413: 'request body too large',
    429: 'rate_limit_error',
    500: 'api_error',
    503: 'service unavailable',
  };
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      { description: text[s] ?? 'error', content: { 'application/json': { schema: ZErrorEnvelope } } },
    ]),
  );
}

export function buildOpenApiDocument(
  registry: OpenAPIRegistry,
  info: { title: string; version: string; description?: string },
  servers: Array<{ url: string }> = [],
) {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: '3.1.0', info, servers });
}
