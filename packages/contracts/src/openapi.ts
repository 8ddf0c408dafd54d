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

/**
 * The headers of a 429 (docs/security.md "Rate limits and caps"; the RateLimit fields follow
 * draft-ietf-httpapi-ratelimit-headers-11). Successful responses of limited routes carry the two
 * RateLimit fields as well.
 */
export const RATE_LIMIT_HEADERS = {
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer' as const, minimum: 1 },
  },
  RateLimit: {
    description: 'The counter of the policy that refused the request: `"<policy>";r=<remaining>;t=<seconds to reset>`.',
    schema: { type: 'string' as const, examples: ['"live";r=0;t=1'] },
  },
  'RateLimit-Policy': {
    description:
      'The policy: `"<policy>";q=<quota>;w=<window seconds>` (live, test, admin, failed_auth, threat_writes).',
    schema: { type: 'string' as const, examples: ['"live";q=100;w=1'] },
  },
};

/**
 * Standard error responses for a route, each in the envelope. Every route that authenticates (401)
 * is rate-limited, so it documents 429 with its headers too, whether or not the caller lists it.
 */
export function errorResponses(...given: number[]) {
  const statuses = given.includes(401) && !given.includes(429) ? [...given, 429].sort((a, b) => a - b) : given;
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
      {
        description: text[s] ?? 'error',
        ...(s === 429 ? { headers: RATE_LIMIT_HEADERS } : {}),
        content: { 'application/json': { schema: ZErrorEnvelope } },
      },
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
