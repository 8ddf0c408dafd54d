// jest setupFilesAfterEnv: every response the public API's suites receive through supertest is checked against
// the served OpenAPI document (@risk/testing validateSupertestResponses, docs/architecture.md "Routes").
import { validateSupertestResponses } from '@risk/testing';
import { buildPublicOpenApiDocument } from '../src/openapi';

validateSupertestResponses(buildPublicOpenApiDocument('http://127.0.0.1:8080'), {
  // served outside the document on purpose: the probes and index (src/app.ts), the document itself, the
  // docs site and the Prometheus scrape (docs/observability.md)
  outside: [/^\/$/, /^\/(healthz|readyz|metrics)$/i, /^\/v1\/openapi\.json$/i, /^\/docs(\/|$)/i],
});
