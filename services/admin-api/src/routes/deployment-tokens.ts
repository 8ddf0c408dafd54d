import { defineRoute } from '@risk/common';
import { z, zList, ZCreateDeploymentTokenBody, ZDeploymentToken, ZListQuery, zPathId } from '@risk/contracts';
import { adminToken } from '../http/route';
import { createDeploymentToken } from '../domain/deployment-tokens/create-deployment-token';
import { listDeploymentTokens } from '../domain/deployment-tokens/list-deployment-tokens';
import { revokeDeploymentToken } from '../domain/deployment-tokens/revoke-deployment-token';

const ZTenantParams = z.object({ id: zPathId });

/** A tenant's deployment tokens (admin token); routes/deploy.ts exchanges them. */
export const deploymentTokenRoutes = [
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
