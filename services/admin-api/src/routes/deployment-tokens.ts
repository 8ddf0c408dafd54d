import { defineRoute } from '@risk/common/http';
import {
  EXAMPLE_DEPLOYMENT_TOKEN,
  EXAMPLE_DEPLOYMENT_TOKEN_CREATED,
  EXAMPLE_TENANT,
  exampleAdminList,
  z,
  ZCreateDeploymentTokenBody,
  ZDeploymentToken,
  zList,
  ZListQuery,
  zPathId,
} from '@risk/contracts';
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
      examples: {
        request: { name: 'k8s-collector eu-west-1', expires_in_hours: 168, max_uses: 10 },
        response: EXAMPLE_DEPLOYMENT_TOKEN_CREATED,
      },
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
      examples: {
        response: exampleAdminList(`/tenants/v1/${EXAMPLE_TENANT.id}/deployment-tokens`, [EXAMPLE_DEPLOYMENT_TOKEN]),
      },
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
      examples: {
        response: { ...EXAMPLE_DEPLOYMENT_TOKEN, status: 'revoked', revoked_at: '2026-11-22T08:02:40.000Z' },
      },
      summary: 'Revoke a deployment token and every key minted from it',
      response: { description: 'success', schema: ZDeploymentToken },
      errors: [404],
    },
    handler: ({ deps, params }) => revokeDeploymentToken(deps, { tenantId: params.id, tokenId: params.token_id }),
  }),
];
