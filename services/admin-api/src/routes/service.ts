import { defineRoute, RawResponse, type RouteDefinition } from '@risk/common/http';
import {
  EXAMPLE_HEALTH,
  EXAMPLE_HEALTH_DEGRADED,
  EXAMPLE_SERVICE_INDEX,
  ZHealth,
  ZOpenApiDocument,
  ZServiceIndex,
  type z,
} from '@risk/contracts';
import { adminOpenApiDocument } from '../openapi-document';
import { noCredential, probe, type AdminContext } from '../http/route';
import { checkHealth } from '../domain/service/check-health';
import { routeTableOf } from './table';

let document: z.input<typeof ZOpenApiDocument> | undefined;

/**
 * The service's own routes: the index with its endpoints map, the health probe and the OpenAPI document. The
 * index and the document describe every route, which `allRoutes` hands in: importing the route list here would
 * make an import cycle (docs/architecture.md "Layering rules").
 */
export const serviceRoutes = (allRoutes: () => ReadonlyArray<RouteDefinition<AdminContext>>) => [
  defineRoute({
    method: 'get',
    path: '/',
    auth: noCredential,
    doc: {
      examples: { response: EXAMPLE_SERVICE_INDEX },
      summary: 'Service index and endpoints map',
      response: { description: 'the index', schema: ZServiceIndex },
    },
    handler: () => ({
      service: 'Admin API',
      status: 'running' as const,
      version: '1.0.0',
      endpoints: Object.fromEntries(
        routeTableOf(allRoutes()).map((r) => [
          `${r.method.toUpperCase()} ${r.path}`,
          { auth: r.auth, summary: r.summary },
        ]),
      ),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/health',
    auth: probe,
    doc: {
      examples: { response: EXAMPLE_HEALTH },
      summary: 'Postgres and Redis status',
      response: { description: 'both answer', schema: ZHealth },
      otherResponses: {
        503: {
          description: 'either does not',
          content: { 'application/json': { schema: ZHealth, example: EXAMPLE_HEALTH_DEGRADED } },
        },
      },
    },
    // 503 when either is down: the probe's status is the answer
    handler: async ({ deps }) => {
      const health = await checkHealth(deps);
      return new RawResponse('application/json', JSON.stringify(health), health.status === 'ok' ? 200 : 503);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/openapi.json',
    auth: noCredential,
    doc: {
      examples: {
        response: {
          openapi: '3.1.0',
          info: { title: 'Risk Intelligence Admin API', version: '1.0.0' },
          paths: { '/health': { get: { operationId: 'getHealth', summary: 'Readiness: Postgres and Redis' } } },
        },
      },
      summary: 'This document',
      response: { description: 'the document', schema: ZOpenApiDocument },
    },
    // a spread copy: an object type, unlike the builder's OpenAPIObject interface, meets the schema's loose index
    handler: () => (document ??= { ...adminOpenApiDocument(allRoutes()) }),
  }),
];
