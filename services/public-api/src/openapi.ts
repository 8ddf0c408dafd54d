import { registerRoutes } from '@risk/common/http';
import { buildOpenApiDocument, OpenAPIRegistry, publicRegistry } from '@risk/contracts';
import { V1_RESOURCES } from './routes';

/**
 * The OpenAPI 3.1 document of every /v1 route, from the route definitions (the components come from
 * the contracts' registry); also dumped without a server by the SDK's generator (packages/sdk).
 */
export function buildPublicOpenApiDocument(baseUrl: string) {
  const registry = new OpenAPIRegistry([publicRegistry]);
  for (const routes of V1_RESOURCES) registerRoutes(registry, routes, '/v1');
  return buildOpenApiDocument(
    registry,
    {
      title: 'Risk Intelligence API',
      version: '1.0.0',
      description: 'Signals, assets, look-up, threats and webhooks. Errors use one envelope (docs/errors.md).',
    },
    [{ url: baseUrl }],
  );
}
