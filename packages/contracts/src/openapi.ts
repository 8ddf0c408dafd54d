import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { ZErrorEnvelope } from './common';
import { z } from './zod';

/**
 * Two registries, one per service, holding the shared components (security schemes, the error envelope,
 * named schemas). Each service builds its document in a child registry with the operations of its route
 * definitions (@risk/common registerRoutes) and serves it at /v1/openapi.json and /openapi.json.
 */
export const publicRegistry = new OpenAPIRegistry();
export const adminRegistry = new OpenAPIRegistry();

publicRegistry.registerComponent('securitySchemes', 'apiKey', {
  type: 'http',
  scheme: 'bearer',
  description: 'API key: `Authorization: Bearer rk_live_…` (or rk_test_…)',
});
publicRegistry.register('ErrorEnvelope', ZErrorEnvelope);
adminRegistry.registerComponent('securitySchemes', 'adminToken', {
  type: 'http',
  scheme: 'bearer',
  description: 'ADMIN_API_TOKEN: `Authorization: Bearer <ADMIN_API_TOKEN>` (tenant management)',
});
adminRegistry.registerComponent('securitySchemes', 'tenantToken', {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'JWT',
  description:
    'tenant token (JWT, sub = tenant id, jti = token id) from POST /tenants/v1/register or POST /tenants/v1/{id}/tokens',
});
// the console's session cookie (docs/console.md "Sign-in and access"): `__Host-risk_console` over HTTPS,
// `risk_console` over plain HTTP on a developer's machine; state-changing calls also send X-Console-CSRF
adminRegistry.registerComponent('securitySchemes', 'consoleSession', {
  type: 'apiKey',
  in: 'cookie',
  name: '__Host-risk_console',
  description:
    'console session from POST /console/v1/session (HttpOnly, SameSite=Strict); with X-Console-CSRF on POST, PUT, PATCH and DELETE',
});
// the feed credential (docs/feeds.md "Feed tokens"): firewalls send HTTP Basic (PAN-OS EDL client
// authentication, FortiGate external-resource username/password); scripts may send the secret as a bearer token
adminRegistry.registerComponent('securitySchemes', 'feedBasic', {
  type: 'http',
  scheme: 'basic',
  description: 'feed token: user name = the token id `ftk_…`, password = its secret `rkf_…`',
});
adminRegistry.registerComponent('securitySchemes', 'feedBearer', {
  type: 'http',
  scheme: 'bearer',
  description: 'feed token secret: `Authorization: Bearer rkf_…`',
});
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
    415: 'unsupported media type (send application/json)',
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
  servers: Array<{ url: string; description?: string }> = [],
) {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: '3.1.0', info, servers });
}

/** The Idempotency-Key header every idempotent POST documents (docs/errors.md). */
export const ZIdempotencyKeyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .uuid()
    .openapi({ description: 'a UUID; replays within 24 h return the first response' }),
});

export { OpenAPIRegistry };
export type { ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
