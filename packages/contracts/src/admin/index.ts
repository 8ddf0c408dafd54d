// Admin API contracts: request bodies (strict: unknown fields are 400 parameter_unknown) and responses.
// The admin service validates with these and serves the OpenAPI document built from adminRegistry.
import { z } from '../zod';
import { ZListParams, zList } from '../common';
import { adminRegistry, errorResponses } from '../openapi';

const isoDate = z.string().openapi({ format: 'date-time' });

// ── tenants ──
export const ZCreateTenantBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    admin_email: z.email().max(254),
  })
  .openapi('CreateTenantBody');

export const ZTenant = z
  .object({
    object: z.literal('tenant'),
    id: z.string(),
    name: z.string(),
    admin_email: z.string(),
    org_id: z.string(),
    status: z.enum(['active', 'suspended']).openapi({
      description:
        'suspended: every tenant token, deployment token and API key of the tenant is refused (403 tenant_suspended)',
    }),
    suspended_at: isoDate.nullable(),
    created: isoDate,
    updated: isoDate,
  })
  .openapi('Tenant');

export const ZCreateTenantTokenBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    expires_in_days: z.number().int().min(1).max(365).optional(),
  })
  .openapi('CreateTenantTokenBody');

export const ZTenantToken = z
  .object({
    object: z.literal('tenant_token'),
    id: z.string().openapi({ description: "the token's id (its JWT `jti`), used to revoke it" }),
    tenant_id: z.string(),
    name: z.string().nullable(),
    status: z.enum(['active', 'expired', 'revoked']),
    expires_at: isoDate,
    revoked_at: isoDate.nullable(),
    last_used_at: isoDate.nullable().openapi({ description: 'to the minute' }),
    created: isoDate,
    token: z.string().optional().openapi({ description: 'the secret JWT; only in the minting response' }),
  })
  .openapi('TenantToken');

export const ZRegisteredTenant = ZTenant.extend({ tenant_token: ZTenantToken }).openapi('RegisteredTenant');

// ── deployment tokens and credentials ──
export const ZCreateDeploymentTokenBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    expires_in_hours: z.number().int().min(1).max(8760).default(168),
    max_uses: z.number().int().min(1).max(1_000_000).optional(),
  })
  .openapi('CreateDeploymentTokenBody');

export const ZDeploymentToken = z
  .object({
    object: z.literal('deployment_token'),
    id: z.string(),
    tenant_id: z.string(),
    name: z.string().nullable(),
    token_prefix: z.string(),
    status: z.enum(['active', 'expired', 'exhausted', 'revoked']),
    expires_at: isoDate,
    max_uses: z.number().int().nullable(),
    use_count: z.number().int(),
    revoked_at: isoDate.nullable(),
    last_used_at: isoDate.nullable(),
    created: isoDate,
    token: z.string().optional().openapi({ description: 'the secret `dpl_…`; only in the creation response' }),
  })
  .openapi('DeploymentToken');

export const ZDeploymentCredentials = z
  .object({
    object: z.literal('deployment_credentials'),
    tenant_id: z.string(),
    org_id: z.string(),
    api_base_url: z.string(),
    api_key: z.object({
      id: z.string(),
      key: z.string(),
      scopes: z.array(z.string()),
      livemode: z.boolean(),
      expires_at: isoDate.nullable(),
    }),
  })
  .openapi('DeploymentCredentials');

// ── firewalls ──
export const FIREWALL_TYPE_VALUES = ['palo_alto', 'fortinet'] as const;
const zHost = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(
    // the IPv6 alternative was `[0-9a-fA-F:]+:[0-9a-fA-F:.]*` (which `:` ends the first run was ambiguous: quadratic);
    // this is the same language with one way to match it: a first character, then a `:` before any `.`
    /^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:][0-9a-fA-F]*:[0-9a-fA-F:]*(?:\.[0-9a-fA-F:.]*)?|[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*\.?)$/,
    'must be a host name or an IP address',
  );

export const ZCreateFirewallBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    type: z.enum(FIREWALL_TYPE_VALUES),
    host: zHost,
    port: z.number().int().min(1).max(65535).default(443),
    api_token: z.string().min(1).max(4096),
    verify_ssl: z.boolean().default(true),
  })
  .openapi('CreateFirewallBody');

export const ZUpdateFirewallBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    type: z.enum(FIREWALL_TYPE_VALUES).optional(),
    host: zHost.optional(),
    port: z.number().int().min(1).max(65535).optional(),
    api_token: z.string().min(1).max(4096).optional(),
    verify_ssl: z.boolean().optional(),
  })
  .openapi('UpdateFirewallBody', {
    description:
      'Changing type, host, port or verify_ssl needs api_token in the same request (400 missing_required_param, param api_token): a stored token is never sent to a connection it was not given for.',
  });

export const ZFirewallTestResult = z
  .object({
    object: z.literal('firewall_test'),
    firewall_id: z.string(),
    ok: z.boolean(),
    status: z.enum(['connected', 'error']),
    latency_ms: z.number().int(),
    model: z.string().nullable(),
    version: z.string().nullable(),
    hostname: z.string().nullable(),
    serial: z.string().nullable(),
    error: z.object({ reason: z.string(), message: z.string() }).nullable(),
    tested_at: isoDate,
  })
  .openapi('FirewallTestResult');

export const ZFirewall = z
  .object({
    object: z.literal('firewall'),
    id: z.string(),
    name: z.string(),
    type: z.enum(FIREWALL_TYPE_VALUES),
    host: z.string(),
    port: z.number().int(),
    verify_ssl: z.boolean(),
    api_token_last4: z.string(),
    status: z.enum(['unknown', 'connected', 'error']),
    model: z.string().nullable(),
    version: z.string().nullable(),
    last_test: z
      .object({
        ok: z.boolean().nullable(),
        at: isoDate.nullable(),
        latency_ms: z.number().nullable(),
        error: z.string().nullable(),
      })
      .nullable(),
    logging: z
      .object({
        status: z.string().nullable(),
        config: z.unknown(),
        error: z.string().nullable(),
        updated_at: isoDate.nullable(),
      })
      .nullable(),
    created: isoDate,
    updated: isoDate,
  })
  .openapi('Firewall');

/** Syslog transports and facilities a firewall's log forwarding can use (the connectors map them per vendor). */
export const SYSLOG_MODES = ['udp', 'tcp', 'tls'] as const;
export type SyslogMode = (typeof SYSLOG_MODES)[number];
export const SYSLOG_FACILITIES = [
  'LOG_USER',
  'LOG_LOCAL0',
  'LOG_LOCAL1',
  'LOG_LOCAL2',
  'LOG_LOCAL3',
  'LOG_LOCAL4',
  'LOG_LOCAL5',
  'LOG_LOCAL6',
  'LOG_LOCAL7',
] as const;
export type SyslogFacility = (typeof SYSLOG_FACILITIES)[number];

export const ZConfigureLoggingBody = z
  .strictObject({
    syslog_server: zHost.refine((v) => v.length <= 63, 'must be at most 63 characters'),
    syslog_port: z.number().int().min(1).max(65535).default(514),
    mode: z.enum(SYSLOG_MODES).default('udp'),
    facility: z.enum(SYSLOG_FACILITIES).default('LOG_USER'),
  })
  .openapi('ConfigureLoggingBody');

export const ZLoggingResult = z
  .object({
    object: z.literal('firewall_logging'),
    firewall_id: z.string(),
    ok: z.boolean(),
    config: z.object({ syslog_server: z.string(), syslog_port: z.number(), mode: z.string(), facility: z.string() }),
    vendor_config: z.record(z.string(), z.unknown()).nullable(),
    error: z.object({ reason: z.string(), message: z.string() }).nullable(),
    updated_at: isoDate,
  })
  .openapi('FirewallLoggingResult');

// ── URL-filter policies ──
export const FILTER_ACTION_VALUES = ['allow', 'block', 'alert'] as const;

export const ZCreateRuleBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    action: z.enum(FILTER_ACTION_VALUES),
    categories: z.array(z.string().min(1).max(64)).max(50).default([]),
    domains: z.array(z.string().min(1).max(255)).max(500).default([]),
    min_risk_score: z.number().int().min(0).max(100).nullable().optional(),
    enabled: z.boolean().default(true),
  })
  .openapi('CreateUrlFilterRuleBody');

export const ZUpdateRuleBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).nullable().optional(),
    action: z.enum(FILTER_ACTION_VALUES).optional(),
    categories: z.array(z.string().min(1).max(64)).max(50).optional(),
    domains: z.array(z.string().min(1).max(255)).max(500).optional(),
    min_risk_score: z.number().int().min(0).max(100).nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .openapi('UpdateUrlFilterRuleBody');

export const ZCreatePolicyBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    description: z.string().max(1000).optional(),
    default_action: z.enum(FILTER_ACTION_VALUES).default('allow'),
    rules: z.array(ZCreateRuleBody).max(200).default([]),
  })
  .openapi('CreateUrlFilterPolicyBody');

export const ZUpdatePolicyBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    description: z.string().max(1000).nullable().optional(),
    default_action: z.enum(FILTER_ACTION_VALUES).optional(),
  })
  .openapi('UpdateUrlFilterPolicyBody');

export const ZReorderRulesBody = z
  .strictObject({
    rule_ids: z.array(z.string().min(1)).max(200),
    expected_version: z.number().int().min(1).optional(),
  })
  .openapi('ReorderUrlFilterRulesBody');

export const ZAssignPolicyBody = z
  .strictObject({ firewall_ids: z.array(z.string().min(1)).min(1).max(100) })
  .openapi('AssignUrlFilterPolicyBody');

export const ZUrlFilterRule = z
  .object({
    object: z.literal('url_filter_rule'),
    id: z.string(),
    policy_id: z.string(),
    position: z.number().int(),
    name: z.string().nullable(),
    action: z.enum(FILTER_ACTION_VALUES),
    categories: z.array(z.string()),
    domains: z.array(z.string()),
    min_risk_score: z.number().int().nullable(),
    enabled: z.boolean(),
    created: isoDate,
    updated: isoDate,
  })
  .openapi('UrlFilterRule');

export const ZPolicyAssignment = z
  .object({
    object: z.literal('policy_assignment'),
    id: z.string(),
    policy_id: z.string(),
    firewall_id: z.string(),
    // removal_failed: the unassign could not reach the firewall within its retries (docs/firewalls.md)
    sync_status: z.enum(['pending', 'synced', 'failed', 'removing', 'removal_failed']),
    target_version: z.number().int(),
    synced_version: z.number().int().nullable(),
    last_error: z.string().nullable(),
    last_synced_at: isoDate.nullable(),
    warnings: z.array(z.string()),
  })
  .openapi('PolicyAssignment');

export const ZUrlFilterPolicy = z
  .object({
    object: z.literal('url_filter_policy'),
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    default_action: z.enum(FILTER_ACTION_VALUES),
    version: z.number().int(),
    rules: z.array(ZUrlFilterRule),
    assignments: z.array(ZPolicyAssignment),
    created: isoDate,
    updated: isoDate,
  })
  .openapi('UrlFilterPolicy');

export const ZCategory = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    pan_os: z.array(z.string()).optional(),
    fortiguard: z.array(z.number()).optional(),
    parent: z.string().optional(),
    domains: z.array(z.string()).optional(),
    vendors: z.array(z.string()).optional(),
  })
  .openapi('UrlCategory');

export const ZRiskScore = z
  .object({
    object: z.literal('url_risk_score'),
    url: z.string(),
    normalized_url: z.string(),
    host: z.string(),
    registrable_domain: z.string().nullable(),
    categories: z.array(z.string()),
    ai_category: z.string().nullable(),
    vendor: z.string().nullable(),
    risk_score: z.number().int(),
    severity: z.enum(['critical', 'high', 'medium', 'low', 'informational']),
    factors: z.array(z.object({ code: z.string(), points: z.number(), evidence: z.string() })),
    scoring_version: z.string(),
    action: z.enum(FILTER_ACTION_VALUES).nullable(),
    policy_decisions: z.array(
      z.object({
        policy_id: z.string(),
        policy_name: z.string(),
        action: z.enum(FILTER_ACTION_VALUES),
        rule_id: z.string().nullable(),
        matched_on: z.string(),
      }),
    ),
  })
  .openapi('UrlRiskScore');

/** One assignment whose removal failed, deleted anyway with ?force=true: what may still be on the device. */
export const ZLeftOnDevice = z
  .object({
    firewall_id: z.string(),
    firewall_name: z.string(),
    host: z.string(),
    policy_id: z.string(),
    policy_name: z.string(),
    sync_status: z.literal('removal_failed'),
    last_error: z.string().nullable(),
    objects: z.array(z.string()).openapi({ description: 'what the last successful push created on the device' }),
  })
  .openapi('LeftOnDevice');

export const ZDeleted = z
  .object({
    id: z.string(),
    object: z.string(),
    deleted: z.literal(true),
    left_on_device: z.array(ZLeftOnDevice).optional().openapi({
      description:
        'DELETE ?force=true of a policy or firewall only: the assignments whose removal had failed, and what of them may be left on the device',
    }),
  })
  .openapi('Deleted');

/** DELETE of a policy or firewall: force=true deletes despite assignments whose removal ended removal_failed */
export const ZForceDeleteQuery = z.object({
  force: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ description: 'true: delete even though removals ended removal_failed (see left_on_device)' }),
});

// ── OpenAPI registration ──
adminRegistry.registerComponent('securitySchemes', 'adminToken', {
  type: 'http',
  scheme: 'bearer',
  description: 'ADMIN_API_TOKEN: `Authorization: Bearer <ADMIN_API_TOKEN>` (tenant management)',
});
adminRegistry.registerComponent('securitySchemes', 'tenantToken', {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'JWT',
  description:
    'tenant token (JWT, sub = tenant id, jti = token id) from POST /tenants/v1/register or POST /tenants/v1/{id}/tokens',
});

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
    query: ZForceDeleteQuery,
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
    query: ZForceDeleteQuery,
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
      ...(route.query ? { query: route.query } : isList(route) ? { query: ZListParams } : {}),
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
