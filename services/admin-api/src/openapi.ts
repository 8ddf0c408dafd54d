import { adminOpenApiDocument } from './openapi-document';
import { ADMIN_ROUTES } from './routes';

/**
 * The admin API's OpenAPI 3.1 document (GET /openapi.json), from the route definitions; also dumped without a
 * server by the SDK's generator.
 */
export function buildAdminOpenApiDocument() {
  return adminOpenApiDocument(ADMIN_ROUTES);
}
