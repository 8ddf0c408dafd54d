import { defineRoute } from '@risk/common/http';
import { buildPublicOpenApiDocument } from '../openapi';
import { publicAccess } from '../http/route';

const documents = new WeakMap<object, unknown>();

/** GET /v1/openapi.json: the OpenAPI 3.1 document of every /v1 route (public, no key needed; not in itself). */
export const openapiRoutes = [
  defineRoute({
    method: 'get',
    path: '/openapi.json',
    auth: publicAccess,
    doc: false,
    handler: ({ deps }) => {
      let document = documents.get(deps);
      if (!document) {
        document = buildPublicOpenApiDocument(deps.config.PUBLIC_API_BASE_URL);
        documents.set(deps, document);
      }
      return document;
    },
  }),
];
