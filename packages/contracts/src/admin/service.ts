// The admin service's own responses: the index (GET /), the readiness probe (GET /health) and the document.
import { z } from '../zod';

export const ZServiceIndex = z
  .object({
    service: z.string(),
    status: z.literal('running'),
    version: z.string(),
    endpoints: z
      .record(z.string(), z.object({ auth: z.string(), summary: z.string().optional() }))
      .openapi({ description: '`METHOD /path` → the route’s credential and summary' }),
  })
  .openapi('ServiceIndex');

const ZDependencyCheck = z.object({
  status: z.enum(['up', 'down']),
  latency_ms: z.number().optional(),
  error: z.string().optional(),
});

/** 200 when Postgres and Redis answer, 503 with the same body when either does not. */
export const ZHealth = z
  .object({
    status: z.enum(['ok', 'degraded']),
    service: z.string(),
    checks: z.object({ postgres: ZDependencyCheck, redis: ZDependencyCheck }),
  })
  .openapi('Health');

export const ZOpenApiDocument = z
  .object({
    openapi: z.string(),
    info: z.object({ title: z.string(), version: z.string() }),
    // optional in OpenAPI 3.1 (a document may hold only webhooks or components)
    paths: z.record(z.string(), z.unknown()).optional(),
  })
  .passthrough()
  .openapi('OpenApiDocument', { description: 'an OpenAPI 3.1 document' });
