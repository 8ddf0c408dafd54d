import { defineRoute } from '@risk/common/http';
import {
  EXAMPLE_REGISTERED_TENANT,
  EXAMPLE_TENANT,
  EXAMPLE_TENANT_TOKEN,
  EXAMPLE_TENANT_TOKEN_MINTED,
  exampleAdminList,
  z,
  ZCreateTenantBody,
  ZCreateTenantTokenBody,
  zList,
  ZListQuery,
  zPathId,
  ZRegisteredTenant,
  ZTenant,
  ZTenantToken,
} from '@risk/contracts';
import { adminToken } from '../http/route';
import { getTenant } from '../domain/tenants/get-tenant';
import { listTenants } from '../domain/tenants/list-tenants';
import { registerTenant } from '../domain/tenants/register-tenant';
import { setTenantStatus } from '../domain/tenants/set-tenant-status';
import { listTenantTokens } from '../domain/tenant-tokens/list-tenant-tokens';
import { mintTenantToken } from '../domain/tenant-tokens/mint-tenant-token';
import { revokeTenantToken } from '../domain/tenant-tokens/revoke-tenant-token';

const ZTenantParams = z.object({ id: zPathId });

/** Tenants and their tenant tokens (admin token; docs/security.md "Tenant credentials and firewall tokens"). */
export const tenantRoutes = [
  defineRoute({
    method: 'post',
    path: '/tenants/v1/register',
    auth: adminToken,
    body: ZCreateTenantBody,
    status: 201,
    doc: {
      examples: {
        request: { name: 'Acme Corp', admin_email: 'secops@acme.example' },
        response: EXAMPLE_REGISTERED_TENANT,
      },
      summary: 'Register a tenant; returns a tenant token once',
      response: { description: 'success', schema: ZRegisteredTenant },
      errors: [400, 409],
    },
    handler: ({ deps, body }) => registerTenant(deps, body),
  }),
  defineRoute({
    method: 'get',
    path: '/tenants/v1',
    auth: adminToken,
    query: ZListQuery,
    doc: {
      examples: { response: exampleAdminList('/tenants/v1', [EXAMPLE_TENANT]) },
      summary: 'List tenants',
      response: { description: 'success', schema: zList(ZTenant, 'TenantList') },
      errors: [400],
    },
    handler: ({ deps, query }) => listTenants(deps, { page: query }),
  }),
  defineRoute({
    method: 'get',
    path: '/tenants/v1/:id',
    auth: adminToken,
    params: ZTenantParams,
    doc: {
      examples: { response: EXAMPLE_TENANT },
      summary: 'Retrieve a tenant',
      response: { description: 'success', schema: ZTenant },
      errors: [404],
    },
    handler: ({ deps, params }) => getTenant(deps, params),
  }),
  defineRoute({
    method: 'post',
    path: '/tenants/v1/:id/suspend',
    auth: adminToken,
    params: ZTenantParams,
    doc: {
      examples: {
        response: {
          ...EXAMPLE_TENANT,
          status: 'suspended',
          suspended_at: '2026-11-22T09:14:03.000Z',
          updated: '2026-11-22T09:14:03.000Z',
        },
      },
      summary: 'Suspend a tenant: its tenant tokens, deployment tokens and API keys are refused at once',
      response: { description: 'success', schema: ZTenant },
      errors: [404],
    },
    handler: ({ deps, params }) => setTenantStatus(deps, { id: params.id, status: 'suspended' }),
  }),
  defineRoute({
    method: 'post',
    path: '/tenants/v1/:id/reactivate',
    auth: adminToken,
    params: ZTenantParams,
    doc: {
      examples: { response: { ...EXAMPLE_TENANT, updated: '2026-11-22T10:02:47.000Z' } },
      summary: 'Reactivate a suspended tenant (revoked and expired credentials stay so)',
      response: { description: 'success', schema: ZTenant },
      errors: [404],
    },
    handler: ({ deps, params }) => setTenantStatus(deps, { id: params.id, status: 'active' }),
  }),
  defineRoute({
    method: 'post',
    path: '/tenants/v1/:id/tokens',
    auth: adminToken,
    params: ZTenantParams,
    body: ZCreateTenantTokenBody,
    status: 201,
    doc: {
      examples: { request: { name: 'terraform', expires_in_days: 90 }, response: EXAMPLE_TENANT_TOKEN_MINTED },
      summary: 'Mint a new tenant token (secret shown once)',
      response: { description: 'success', schema: ZTenantToken },
      errors: [400, 404],
    },
    handler: ({ deps, params, body }) => mintTenantToken(deps, { tenantId: params.id, ...body }),
  }),
  defineRoute({
    method: 'get',
    path: '/tenants/v1/:id/tokens',
    auth: adminToken,
    params: ZTenantParams,
    query: ZListQuery,
    doc: {
      examples: {
        response: exampleAdminList(`/tenants/v1/${EXAMPLE_TENANT.id}/tokens`, [EXAMPLE_TENANT_TOKEN]),
      },
      summary: 'List tenant tokens (never the secret)',
      response: { description: 'success', schema: zList(ZTenantToken, 'TenantTokenList') },
      errors: [400, 404],
    },
    handler: ({ deps, params, query }) => listTenantTokens(deps, { tenantId: params.id, page: query }),
  }),
  defineRoute({
    method: 'delete',
    path: '/tenants/v1/:id/tokens/:token_id',
    auth: adminToken,
    params: z.object({ id: zPathId, token_id: zPathId }),
    doc: {
      examples: {
        response: { ...EXAMPLE_TENANT_TOKEN, status: 'revoked', revoked_at: '2026-11-22T08:02:40.000Z' },
      },
      summary: 'Revoke a tenant token; the next request with it is 401 token_revoked',
      response: { description: 'success', schema: ZTenantToken },
      errors: [404],
    },
    handler: ({ deps, params }) => revokeTenantToken(deps, { tenantId: params.id, tokenId: params.token_id }),
  }),
];
