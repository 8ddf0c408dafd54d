// jest setupFilesAfterEnv: every response the admin API's suites receive through supertest (and the harness's
// call()) is checked against the served OpenAPI document (@risk/testing validateSupertestResponses,
// docs/architecture.md "Routes").
import { validateSupertestResponses } from '@risk/testing';
import { buildPublicOpenApiDocument } from '@risk/public-api';
import { buildAdminOpenApiDocument } from '../src/openapi';

validateSupertestResponses(buildAdminOpenApiDocument(), {
  // served outside the document on purpose: the Prometheus scrape (docs/observability.md), the Bull Board
  // (src/queues-board.ts) and the docs site
  outside: [/^\/metrics$/i, /^\/admin\/queues(\/|$)/i, /^\/docs(\/|$)/i, /^\/console(\/(?!v1\/)|$)/],
  // the console's proxies answer as the routes behind them (docs/console.md "Sign-in and access")
  proxied: [
    { prefix: '/console/v1/admin', document: 'own' },
    { prefix: '/console/v1/public', document: 'also' },
  ],
  // the deploy-flow and credential suites call the public API with the keys the admin API hands out
  also: { paths: /^\/v1(\/|$)/i, document: buildPublicOpenApiDocument('http://127.0.0.1:8080') },
});
