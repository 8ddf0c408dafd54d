import { defineRoute, zQueryText } from '@risk/common';
import {
  z,
  zList,
  ZCreateDeploymentTokenBody,
  ZDeploymentCredentials,
  ZDeploymentToken,
  ZListQuery,
  zPathId,
} from '@risk/contracts';
import { adminToken, noCredential } from '../http/route';
import { createDeploymentToken } from '../domain/deployment-tokens/create-deployment-token';
import { exchangeDeploymentToken } from '../domain/deployment-tokens/exchange-deployment-token';
import { listDeploymentTokens } from '../domain/deployment-tokens/list-deployment-tokens';
import { revokeDeploymentToken } from '../domain/deployment-tokens/revoke-deployment-token';

const ZTenantParams = z.object({ id: zPathId });

/** Deployment tokens (admin token) and their exchange for an API key (the token is the credential). */
export const deploymentTokenRoutes = [
  defineRoute({
    method: 'get',
    path: '/deploy/v1/credentials',
    auth: noCredential,
    query: z.object({ token: zQueryText }),
    doc: {
      summary: 'Exchange a deployment token for an API key',
      response: { description: 'success', schema: ZDeploymentCredentials },
      errors: [400, 401],
    },
    handler: ({ deps, query }) => exchangeDeploymentToken(deps, query),
  }),
  defineRoute({
    method: 'post',
    path: '/tenants/v1/:id/deployment-token',
    auth: adminToken,
    params: ZTenantParams,
    body: ZCreateDeploymentTokenBody,
    status: 201,
    doc: {
      summary: 'Create a deployment token (secret shown once)',
      response: { description: 'success', schema: ZDeploymentToken },
      errors: [400, 404],
    },
    handler: ({ deps, params, body }) => createDeploymentToken(deps, { tenantId: params.id, ...body }),
  }),
  defineRoute({
    method: 'get',
    path: '/tenants/v1/:id/deployment-tokens',
    auth: adminToken,
    params: ZTenantParams,
    query: ZListQuery,
    doc: {
      summary: 'List deployment tokens (never the secret)',
      response: { description: 'success', schema: zList(ZDeploymentToken, 'DeploymentTokenList') },
      errors: [400, 404],
    },
    handler: ({ deps, params, query }) => listDeploymentTokens(deps, { tenantId: params.id, page: query }),
  }),
  defineRoute({
    method: 'delete',
    path: '/tenants/v1/:id/deployment-token/:token_id',
    auth: adminToken,
    params: z.object({ id: zPathId, token_id: zPathId }),
    doc: {
      summary: 'Revoke a deployment token and every key minted from it',
      response: { description: 'success', schema: ZDeploymentToken },
      errors: [404],
    },
    handler: ({ deps, params }) => revokeDeploymentToken(deps, { tenantId: params.id, tokenId: params.token_id }),
  }),
];
