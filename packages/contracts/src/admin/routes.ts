// The admin API's route table for its OpenAPI document.
import { z } from '../zod';
import { ZListQuery, zList } from '../common';
import { adminRegistry, errorResponses } from '../openapi';
import { ZDeploymentCredentials, ZCreateDeploymentTokenBody, ZDeploymentToken } from './deployment-tokens';
import {
  ZConfigureLoggingBody,
  ZCreateFirewallBody,
  ZFirewall,
  ZFirewallTestResult,
  ZLoggingResult,
  ZUpdateFirewallBody,
} from './firewalls';
import {
  ZAssignPolicyBody,
  ZCategory,
  ZCreatePolicyBody,
  ZCreateRuleBody,
  ZPolicyAssignment,
  ZReorderRulesBody,
  ZUpdatePolicyBody,
  ZUpdateRuleBody,
  ZUrlFilterPolicy,
  ZUrlFilterRule,
} from './policies';
import { ZRiskScore } from './risk-score';
import { ZDeleted } from './shared';
import { ZCreateTenantBody, ZCreateTenantTokenBody, ZRegisteredTenant, ZTenant, ZTenantToken } from './tenants';

type Auth = 'admin' | 'tenant' | 'none';
interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  auth: Auth;
  summary: string;
  body?: z.ZodType;
  query?: z.ZodObject;
  /** false for a list answered whole (no cursor parameters); other list routes page (DESIGN §3) */
  paged?: false;
  ok: number;
  response?: z.ZodType;
  errors: number[];
}

const id = z.string();
const list = (item: z.ZodType, name: string) => zList(item, name);

export const ADMIN_ROUTE_DOCS: RouteDoc[] = [
  { method: 'get', path: '/', auth: 'none', summary: 'Service index and endpoints map', ok: 200, errors: [] },
  { method: 'get', path: '/health', auth: 'none', summary: 'Postgres and Redis status', ok: 200, errors: [503] },
  { method: 'get', path: '/openapi.json', auth: 'none', summary: 'This document', ok: 200, errors: [] },
  {
    method: 'get',
    path: '/deploy/v1/credentials',
    auth: 'none',
    summary: 'Exchange a deployment token for an API key',
    query: z.object({ token: z.string() }),
    ok: 200,
    response: ZDeploymentCredentials,
    errors: [400, 401],
  },
  {
    method: 'post',
    path: '/tenants/v1/register',
    auth: 'admin',
    summary: 'Register a tenant; returns a tenant token once',
    body: ZCreateTenantBody,
    ok: 201,
    response: ZRegisteredTenant,
    errors: [400, 401, 403, 409],
  },
  {
    method: 'get',
    path: '/tenants/v1',
    auth: 'admin',
    summary: 'List tenants',
    ok: 200,
    response: list(ZTenant, 'TenantList'),
    errors: [400, 401, 403],
  },
  {
    method: 'get',
    path: '/tenants/v1/{id}',
    auth: 'admin',
    summary: 'Retrieve a tenant',
    ok: 200,
    response: ZTenant,
    errors: [401, 403, 404],
  },
  {
    method: 'post',
    path: '/tenants/v1/{id}/suspend',
    auth: 'admin',
    summary: 'Suspend a tenant: its tenant tokens, deployment tokens and API keys are refused at once',
    ok: 200,
    response: ZTenant,
    errors: [401, 403, 404],
  },
  {
    method: 'post',
    path: '/tenants/v1/{id}/reactivate',
    auth: 'admin',
    summary: 'Reactivate a suspended tenant (revoked and expired credentials stay so)',
    ok: 200,
    response: ZTenant,
    errors: [401, 403, 404],
  },
  {
    method: 'post',
    path: '/tenants/v1/{id}/tokens',
    auth: 'admin',
    summary: 'Mint a new tenant token (secret shown once)',
    body: ZCreateTenantTokenBody,
    ok: 201,
    response: ZTenantToken,
    errors: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: '/tenants/v1/{id}/tokens',
    auth: 'admin',
    summary: 'List tenant tokens (never the secret)',
    ok: 200,
    response: list(ZTenantToken, 'TenantTokenList'),
    errors: [400, 401, 403, 404],
  },
  {
    method: 'delete',
    path: '/tenants/v1/{id}/tokens/{token_id}',
    auth: 'admin',
    summary: 'Revoke a tenant token; the next request with it is 401 token_revoked',
    ok: 200,
    response: ZTenantToken,
    errors: [401, 403, 404],
  },
  {
    method: 'post',
    path: '/tenants/v1/{id}/deployment-token',
    auth: 'admin',
    summary: 'Create a deployment token (secret shown once)',
    body: ZCreateDeploymentTokenBody,
    ok: 201,
    response: ZDeploymentToken,
    errors: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: '/tenants/v1/{id}/deployment-tokens',
    auth: 'admin',
    summary: 'List deployment tokens (never the secret)',
    ok: 200,
    response: list(ZDeploymentToken, 'DeploymentTokenList'),
    errors: [400, 401, 403, 404],
  },
  {
    method: 'delete',
    path: '/tenants/v1/{id}/deployment-token/{token_id}',
    auth: 'admin',
    summary: 'Revoke a deployment token and every key minted from it',
    ok: 200,
    response: ZDeploymentToken,
    errors: [401, 403, 404],
  },
  {
    method: 'post',
    path: '/firewalls/v1',
    auth: 'tenant',
    summary: 'Register a firewall',
    body: ZCreateFirewallBody,
    ok: 201,
    response: ZFirewall,
    errors: [400, 401, 403, 409],
  },
  {
    method: 'get',
    path: '/firewalls/v1',
    auth: 'tenant',
    summary: 'List firewalls',
    ok: 200,
    response: list(ZFirewall, 'FirewallList'),
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/firewalls/v1/{id}',
    auth: 'tenant',
    summary: 'Retrieve a firewall',
    ok: 200,
    response: ZFirewall,
    errors: [401, 404],
  },
  {
    method: 'put',
    path: '/firewalls/v1/{id}',
    auth: 'tenant',
    summary: 'Update a firewall (partial)',
    body: ZUpdateFirewallBody,
    ok: 200,
    response: ZFirewall,
    errors: [400, 401, 404, 409],
  },
  {
    method: 'delete',
    path: '/firewalls/v1/{id}',
    auth: 'tenant',
    summary: 'Delete a firewall without assigned policies',
    ok: 200,
    response: ZDeleted,
    errors: [401, 404, 409],
  },
  {
    method: 'post',
    path: '/firewalls/v1/{id}/test',
    auth: 'tenant',
    summary: 'Test the connection (vendor status call)',
    ok: 200,
    response: ZFirewallTestResult,
    errors: [401, 404],
  },
  {
    method: 'post',
    path: '/firewalls/v1/{id}/configure-vendor-logging',
    auth: 'tenant',
    summary: 'Push a syslog server profile to the firewall',
    body: ZConfigureLoggingBody,
    ok: 200,
    response: ZLoggingResult,
    errors: [400, 401, 404],
  },
  {
    method: 'get',
    path: '/policies/v1/categories',
    auth: 'tenant',
    summary: 'General URL categories',
    ok: 200,
    response: list(ZCategory, 'CategoryList'),
    paged: false,
    errors: [401],
  },
  {
    method: 'get',
    path: '/policies/v1/categories/ai',
    auth: 'tenant',
    summary: 'AI sub-categories and their domains',
    ok: 200,
    response: list(ZCategory, 'AiCategoryList'),
    paged: false,
    errors: [401],
  },
  {
    method: 'post',
    path: '/policies/v1/url-filter',
    auth: 'tenant',
    summary: 'Create a URL-filter policy',
    body: ZCreatePolicyBody,
    ok: 201,
    response: ZUrlFilterPolicy,
    errors: [400, 401, 409],
  },
  {
    method: 'get',
    path: '/policies/v1/url-filter',
    auth: 'tenant',
    summary: 'List policies',
    ok: 200,
    response: list(ZUrlFilterPolicy, 'UrlFilterPolicyList'),
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/policies/v1/url-filter/{id}',
    auth: 'tenant',
    summary: 'Retrieve a policy with rules and assignments',
    ok: 200,
    response: ZUrlFilterPolicy,
    errors: [401, 404],
  },
  {
    method: 'put',
    path: '/policies/v1/url-filter/{id}',
    auth: 'tenant',
    summary: 'Update a policy (partial); bumps version, re-syncs',
    body: ZUpdatePolicyBody,
    ok: 200,
    response: ZUrlFilterPolicy,
    errors: [400, 401, 404, 409],
  },
  {
    method: 'delete',
    path: '/policies/v1/url-filter/{id}',
    auth: 'tenant',
    summary: 'Delete an unassigned policy',
    ok: 200,
    response: ZDeleted,
    errors: [401, 404, 409],
  },
  {
    method: 'post',
    path: '/policies/v1/url-filter/{id}/rules',
    auth: 'tenant',
    summary: 'Append a rule',
    body: ZCreateRuleBody,
    ok: 201,
    response: ZUrlFilterRule,
    errors: [400, 401, 404],
  },
  {
    method: 'put',
    path: '/policies/v1/url-filter/{id}/rules/{ruleId}',
    auth: 'tenant',
    summary: 'Update a rule (partial)',
    body: ZUpdateRuleBody,
    ok: 200,
    response: ZUrlFilterRule,
    errors: [400, 401, 404],
  },
  {
    method: 'delete',
    path: '/policies/v1/url-filter/{id}/rules/{ruleId}',
    auth: 'tenant',
    summary: 'Delete a rule',
    ok: 200,
    response: ZDeleted,
    errors: [401, 404],
  },
  {
    method: 'post',
    path: '/policies/v1/url-filter/{id}/rules/reorder',
    auth: 'tenant',
    summary: 'Reorder rules (a permutation of all rule ids)',
    body: ZReorderRulesBody,
    ok: 200,
    response: ZUrlFilterPolicy,
    errors: [400, 401, 404, 409],
  },
  {
    method: 'post',
    path: '/policies/v1/url-filter/{id}/assign',
    auth: 'tenant',
    summary: 'Assign to firewalls (pushed by the worker)',
    body: ZAssignPolicyBody,
    ok: 200,
    response: ZUrlFilterPolicy,
    errors: [400, 401, 404],
  },
  {
    method: 'delete',
    path: '/policies/v1/url-filter/{id}/assign/{fwId}',
    auth: 'tenant',
    summary: 'Unassign from a firewall (removal runs in the worker)',
    ok: 200,
    response: ZPolicyAssignment,
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/tools/v1/risk-score',
    auth: 'tenant',
    summary: 'URL risk score and the action of assigned policies',
    query: z.object({ url: z.string() }),
    ok: 200,
    response: ZRiskScore,
    errors: [400, 401],
  },
];

/** A list route takes the cursor parameters of every list (DESIGN §3); the SDK's auto-pagination relies on them. */
const isList = (route: RouteDoc) =>
  route.method === 'get' &&
  route.paged !== false &&
  route.response instanceof z.ZodObject &&
  'has_more' in route.response.shape;

for (const route of ADMIN_ROUTE_DOCS) {
  const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  adminRegistry.registerPath({
    method: route.method,
    path: route.path,
    summary: route.summary,
    security: route.auth === 'admin' ? [{ adminToken: [] }] : route.auth === 'tenant' ? [{ tenantToken: [] }] : [],
    request: {
      ...(pathParams.length ? { params: z.object(Object.fromEntries(pathParams.map((p) => [p, id]))) } : {}),
      ...(route.query ? { query: route.query } : isList(route) ? { query: ZListQuery } : {}),
      ...(route.body ? { body: { content: { 'application/json': { schema: route.body } } } } : {}),
    },
    responses: {
      [route.ok]: {
        description: 'success',
        ...(route.response ? { content: { 'application/json': { schema: route.response } } } : {}),
      },
      // every credentialed route answers 401 (missing/bad token) and 403 (the other kind of token)
      ...errorResponses(
        ...[...new Set([...route.errors, ...(route.auth === 'none' ? [] : [401, 403])])].sort((a, b) => a - b),
      ),
    },
  });
}
