import { registerRoutes } from '@risk/common/http';
import { adminRegistry, buildOpenApiDocument, OpenAPIRegistry } from '@risk/contracts';
import { ADMIN_ROUTES } from './routes';

/**
 * The admin API's OpenAPI 3.1 document (GET /openapi.json), from the route definitions (the components
 * come from the contracts' registry); also dumped without a server by the SDK's generator.
 */
export function buildAdminOpenApiDocument() {
  const registry = new OpenAPIRegistry([adminRegistry]);
  registerRoutes(registry, ADMIN_ROUTES);
  // the admin API has no configured public URL: the server is the host that serves this document
  return buildOpenApiDocument(registry, { title: 'Risk Intelligence Admin API', version: '1.0.0' }, [
    { url: '/', description: 'the admin API that serves this document' },
  ]);
}
