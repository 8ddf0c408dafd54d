import { registerRoutes } from '@risk/common';
import { adminRegistry, buildOpenApiDocument, OpenAPIRegistry } from '@risk/contracts';
import { ADMIN_ROUTES } from './routes';

/**
 * The admin API's OpenAPI 3.1 document (GET /openapi.json), from the route definitions (the components
 * come from the contracts' registry); also dumped without a server by the SDK's generator.
 */
export function buildAdminOpenApiDocument() {
  const registry = new OpenAPIRegistry([adminRegistry]);
  registerRoutes(registry, ADMIN_ROUTES);
  return buildOpenApiDocument(registry, { title: 'Risk Intelligence Admin API', version: '1.0.0' });
}
