import { adminRegistry, buildOpenApiDocument } from '@risk/contracts';

/** The admin API's OpenAPI 3.1 document (GET /openapi.json); also dumped without a server by the SDK's generator. */
export function buildAdminOpenApiDocument() {
  return buildOpenApiDocument(adminRegistry, { title: 'Risk Intelligence Admin API', version: '1.0.0' });
}
