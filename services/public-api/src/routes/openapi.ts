import { buildOpenApiDocument, publicRegistry } from '@risk/contracts';
import { Router } from 'express';
import type { AppDeps } from '../deps';

/** The OpenAPI 3.1 document of every /v1 route; also dumped without a server by the SDK's generator (packages/sdk). */
export function buildPublicOpenApiDocument(baseUrl: string) {
  return buildOpenApiDocument(
    publicRegistry,
    {
      title: 'Risk Intelligence API',
      version: '1.0.0',
      description: 'Signals, assets, look-up, threats and webhooks. Errors use one envelope (docs/errors.md).',
    },
    [{ url: baseUrl }],
  );
}

/** GET /v1/openapi.json: the OpenAPI 3.1 document of every /v1 route (public, no key needed). */
export function openapiRouter(deps: AppDeps): Router {
  const router = Router();
  let document: unknown;
  router.get('/openapi.json', (_req, res) => {
    document ??= buildPublicOpenApiDocument(deps.config.PUBLIC_API_BASE_URL);
    res.json(document);
  });
  return router;
}
