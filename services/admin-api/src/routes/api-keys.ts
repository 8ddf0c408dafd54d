import { defineRoute } from '@risk/common/http';
import {
  EXAMPLE_API_KEY,
  EXAMPLE_API_KEY_CREATED,
  EXAMPLE_API_KEY_LIST,
  EXAMPLE_API_KEY_REVOKED,
  EXAMPLE_CREATE_API_KEY,
  z,
  ZApiKey,
  ZCreateApiKeyBody,
  zList,
  ZListQuery,
  zPathId,
} from '@risk/contracts';
import { tenantToken } from '../http/route';
import { createApiKey } from '../domain/api-keys/create-api-key';
import { getApiKey } from '../domain/api-keys/get-api-key';
import { listApiKeys } from '../domain/api-keys/list-api-keys';
import { revokeApiKey } from '../domain/api-keys/revoke-api-key';

const ZIdParams = z.object({ id: zPathId });

/**
 * The tenant's org's public-API keys (tenant token; docs/admin-api.md "API keys"): the same store functions as
 * `pnpm cli api-keys`. The create answer holds the secret, so its idempotent replay is stored encrypted.
 */
export const apiKeyRoutes = [
  defineRoute({
    method: 'post',
    path: '/keys/v1',
    auth: tenantToken,
    body: ZCreateApiKeyBody,
    status: 201,
    idempotency: 'middleware',
    storeEncrypted: true,
    doc: {
      summary: "Mint an API key for the tenant's org (secret shown once; Idempotency-Key)",
      description:
        'At most 100 active keys minted by hand per org (`api_key_limit_reached`); `expires_in_days` or ' +
        '`expires_at`, at most 365 days ahead. A retry with the same Idempotency-Key replays the same key.',
      response: { description: 'success', schema: ZApiKey },
      examples: { request: EXAMPLE_CREATE_API_KEY, response: EXAMPLE_API_KEY_CREATED },
      errors: [400],
    },
    handler: ({ deps, auth, body }) => createApiKey(deps, { tenantId: auth.tenantId, body }),
  }),
  defineRoute({
    method: 'get',
    path: '/keys/v1',
    auth: tenantToken,
    query: ZListQuery,
    doc: {
      summary: "List the org's API keys, newest first (never the secret)",
      response: { description: 'success', schema: zList(ZApiKey, 'ApiKeyList') },
      examples: { response: EXAMPLE_API_KEY_LIST },
      errors: [400],
    },
    handler: ({ deps, auth, query }) => listApiKeys(deps, { tenantId: auth.tenantId, page: query }),
  }),
  defineRoute({
    method: 'get',
    path: '/keys/v1/:id',
    auth: tenantToken,
    params: ZIdParams,
    doc: {
      summary: 'Retrieve an API key (never the secret)',
      response: { description: 'success', schema: ZApiKey },
      examples: { response: EXAMPLE_API_KEY },
      errors: [400, 404],
    },
    handler: ({ deps, auth, params }) => getApiKey(deps, { tenantId: auth.tenantId, id: params.id }),
  }),
  defineRoute({
    method: 'delete',
    path: '/keys/v1/:id',
    auth: tenantToken,
    params: ZIdParams,
    doc: {
      summary: 'Revoke an API key (refused by the public API within 5 s)',
      description:
        'Idempotent. A key exchanged from a deployment token answers 409 `api_key_managed_by_deployment_token`: ' +
        'revoke the token (admin token), which revokes every key it minted.',
      response: { description: 'success', schema: ZApiKey },
      examples: { response: EXAMPLE_API_KEY_REVOKED },
      errors: [400, 404, 409],
    },
    handler: ({ deps, auth, params }) => revokeApiKey(deps, { tenantId: auth.tenantId, id: params.id }),
  }),
];
