import { registerRoutes, type RouteDefinition } from '@risk/common/http';
import { adminRegistry, buildOpenApiDocument, OpenAPIRegistry } from '@risk/contracts';
import type { AdminContext } from './http/route';

/**
 * The admin API's OpenAPI 3.1 document built from `routes` (the components come from the contracts' registry).
 * GET /openapi.json serves it for the route list it is handed; `buildAdminOpenApiDocument` (openapi.ts) builds
 * it for ADMIN_ROUTES without a server.
 */
export function adminOpenApiDocument(routes: ReadonlyArray<RouteDefinition<AdminContext>>) {
  const registry = new OpenAPIRegistry([adminRegistry]);
  registerRoutes(registry, routes);
  // the admin API has no configured public URL: the server is the host that serves this document
  return buildOpenApiDocument(registry, { title: 'Risk Intelligence Admin API', version: '1.0.0' }, [
    { url: '/', description: 'the admin API that serves this document' },
  ]);
}
