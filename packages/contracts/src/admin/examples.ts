// The admin API's example objects (docs/architecture.md "Examples"): one realistic instance of each resource, typed
// by its contract, shown by the route definitions (services/admin-api/src/routes/*.ts doc.examples). One story:
// tenant Acme registers, connects a PAN-OS and a FortiGate firewall and pushes a policy that blocks AI chat.
import type { z } from '../zod';
import type { ZDeploymentCredentials, ZDeploymentToken } from './deployment-tokens';
import type { ZFirewall, ZFirewallTestResult, ZLoggingResult } from './firewalls';
import type { ZCategory, ZPolicyAssignment, ZUrlFilterPolicy, ZUrlFilterRule } from './policies';
import type { ZRiskScore } from './risk-score';
import type { ZDeleted } from './shared';
import type { ZHealth, ZServiceIndex } from './service';
import type { ZRegisteredTenant, ZTenant, ZTenantToken } from './tenants';

type Of<S extends z.ZodType> = z.infer<S>;

const AT = '2026-11-22T07:20:55.000Z';
const LATER = '2026-11-22T07:31:12.000Z';
const TENANT_ID = 'ten_01m81c8dkkb77xkmqh8h3t4504';
const FIREWALL_ID = 'fw_01m81c8dkkb77xkmqh8h3t4509';
const POLICY_ID = 'pol_01m81c8dkkb77xkmqh8h3t450b';

/** A list envelope as the admin API renders it. */
export function exampleAdminList<T>(url: string, data: T[]) {
  return { object: 'list' as const, data, has_more: false, url, next_cursor: null };
}

export const EXAMPLE_TENANT: Of<typeof ZTenant> = {
  object: 'tenant',
  id: TENANT_ID,
  name: 'Acme Corp',
  admin_email: 'secops@acme.example',
  org_id: 'org_acme',
  status: 'active',
  suspended_at: null,
  created: AT,
  updated: AT,
};

export const EXAMPLE_TENANT_TOKEN: Of<typeof ZTenantToken> = {
  object: 'tenant_token',
  id: 'ttk_01m81c8dkkb77xkmqh8h3t4506',
  tenant_id: TENANT_ID,
  name: 'terraform',
  status: 'active',
  expires_at: '2027-02-20T07:20:55.000Z',
  revoked_at: null,
  last_used_at: '2026-11-22T07:31:00.000Z',
  created: AT,
};

/** A JWT as the admin API mints them (HS256; sub = tenant id, jti = token id); the signature is illustrative. */
const EXAMPLE_JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ0ZW5fMDFtODFjOGRra2I3N3hrbXFoOGgzdDQ1MDQiLCJqdGkiOiJ0dGtfMDFtODFjOGRra2I3N3hrbXFoOGgzdDQ1MDciLCJpYXQiOjE3OTUzMzkyNTUsImV4cCI6MTgwMzExNTI1NX0.qY3c8k1X2mJ0s9dN7fV4hL6tR1pW5zA8bC3eG0iK2oM';

export const EXAMPLE_TENANT_TOKEN_MINTED: Of<typeof ZTenantToken> = {
  ...EXAMPLE_TENANT_TOKEN,
  id: 'ttk_01m81c8dkkb77xkmqh8h3t4507',
  last_used_at: null,
  token: EXAMPLE_JWT,
};

export const EXAMPLE_REGISTERED_TENANT: Of<typeof ZRegisteredTenant> = {
  ...EXAMPLE_TENANT,
  tenant_token: { ...EXAMPLE_TENANT_TOKEN_MINTED, name: 'initial' },
};

export const EXAMPLE_DEPLOYMENT_TOKEN: Of<typeof ZDeploymentToken> = {
  object: 'deployment_token',
  id: 'dpt_01m81c8dkkb77xkmqh8h3t4508',
  tenant_id: TENANT_ID,
  name: 'k8s-collector eu-west-1',
  token_prefix: 'dpl_Qm9vN2xk',
  status: 'active',
  expires_at: '2026-11-29T07:20:55.000Z',
  max_uses: 10,
  use_count: 3,
  revoked_at: null,
  last_used_at: LATER,
  created: AT,
};

export const EXAMPLE_DEPLOYMENT_TOKEN_CREATED: Of<typeof ZDeploymentToken> = {
  ...EXAMPLE_DEPLOYMENT_TOKEN,
  use_count: 0,
  last_used_at: null,
  token: 'dpl_Qm9vN2xkT3pXc1hKcTRmYlZ0TjhyWWtBMmVEcw',
};

export const EXAMPLE_DEPLOYMENT_CREDENTIALS: Of<typeof ZDeploymentCredentials> = {
  object: 'deployment_credentials',
  tenant_id: TENANT_ID,
  org_id: 'org_acme',
  api_base_url: 'https://api.risk.example.com',
  api_key: {
    id: 'key_01m81c8dkkb77xkmqh8h3t450g',
    key: 'rk_live_5f2KqT9wXb3LmN7pR1vZ8cYd4HjA6sE0',
    scopes: ['signals:write', 'signals:read', 'assets:read', 'threats:read', 'artifacts:read'],
    livemode: true,
    expires_at: null,
  },
};

export const EXAMPLE_FIREWALL: Of<typeof ZFirewall> = {
  object: 'firewall',
  id: FIREWALL_ID,
  name: 'edge-fra-1',
  type: 'palo_alto',
  host: 'fw-edge-fra-1.acme.example',
  port: 443,
  verify_ssl: true,
  api_token_last4: 'x9Qa',
  status: 'connected',
  model: 'PA-3220',
  version: '11.1.2',
  last_test: { ok: true, at: LATER, latency_ms: 184, error: null },
  logging: null,
  created: AT,
  updated: LATER,
};

export const EXAMPLE_CREATE_FIREWALL = {
  name: 'edge-fra-1',
  type: 'palo_alto' as const,
  host: 'fw-edge-fra-1.acme.example',
  port: 443,
  api_token: 'LUFRPT1xZ2s5NHd2RjVtMXJhdmRmb2lDZ3BxV0E9PQ==',
  verify_ssl: true,
};

export const EXAMPLE_FIREWALL_TEST: Of<typeof ZFirewallTestResult> = {
  object: 'firewall_test',
  firewall_id: FIREWALL_ID,
  ok: true,
  status: 'connected',
  latency_ms: 184,
  model: 'PA-3220',
  version: '11.1.2',
  hostname: 'fw-edge-fra-1',
  serial: '013201004321',
  error: null,
  tested_at: LATER,
};

export const EXAMPLE_CONFIGURE_LOGGING = {
  syslog_server: 'syslog.acme.example',
  syslog_port: 6514,
  mode: 'tls' as const,
  facility: 'LOG_LOCAL4' as const,
};

export const EXAMPLE_LOGGING_RESULT: Of<typeof ZLoggingResult> = {
  object: 'firewall_logging',
  firewall_id: FIREWALL_ID,
  ok: true,
  config: { syslog_server: 'syslog.acme.example', syslog_port: 6514, mode: 'tls', facility: 'LOG_LOCAL4' },
  vendor_config: { server_profile: 'risk-syslog', log_forwarding_profile: 'risk-url-logs', transport: 'SSL' },
  error: null,
  updated_at: LATER,
};

export const EXAMPLE_RULE: Of<typeof ZUrlFilterRule> = {
  object: 'url_filter_rule',
  id: 'rul_01m81c8dkkb77xkmqh8h3t450c',
  policy_id: POLICY_ID,
  position: 1,
  name: 'Block AI chat',
  action: 'block',
  categories: ['ai-chat-assistant'],
  domains: ['chat.deepseek.com'],
  min_risk_score: null,
  min_asset_severity: null,
  enabled: true,
  created: AT,
  updated: AT,
};

const RISKY_RULE: Of<typeof ZUrlFilterRule> = {
  ...EXAMPLE_RULE,
  id: 'rul_01m81c8dkkb77xkmqh8h3t450d',
  position: 2,
  name: 'Alert on risky AI services',
  action: 'alert',
  categories: [],
  domains: [],
  min_risk_score: 50,
};

export const EXAMPLE_ASSIGNMENT: Of<typeof ZPolicyAssignment> = {
  object: 'policy_assignment',
  id: 'asg_01m81c8dkkb77xkmqh8h3t450e',
  policy_id: POLICY_ID,
  firewall_id: FIREWALL_ID,
  sync_status: 'synced',
  target_version: 3,
  synced_version: 3,
  last_error: null,
  last_synced_at: LATER,
  warnings: [],
};

export const EXAMPLE_POLICY: Of<typeof ZUrlFilterPolicy> = {
  object: 'url_filter_policy',
  id: POLICY_ID,
  name: 'Block AI chat',
  description: 'Corporate AI usage policy: chat assistants blocked, risky AI services alerted.',
  default_action: 'allow',
  version: 3,
  rules: [EXAMPLE_RULE, RISKY_RULE],
  assignments: [EXAMPLE_ASSIGNMENT],
  created: AT,
  updated: LATER,
};

export const EXAMPLE_CREATE_POLICY = {
  name: 'Block AI chat',
  description: EXAMPLE_POLICY.description!,
  default_action: 'allow' as const,
  rules: [
    {
      name: 'Block AI chat',
      action: 'block' as const,
      categories: ['ai-chat-assistant'],
      domains: ['chat.deepseek.com'],
    },
    { name: 'Alert on risky AI services', action: 'alert' as const, min_risk_score: 50 },
  ],
};

export const EXAMPLE_CREATE_RULE = {
  name: 'Block code assistants',
  action: 'block' as const,
  categories: ['ai-code-assistant'],
  domains: [],
};

export const EXAMPLE_DELETED_POLICY: Of<typeof ZDeleted> = {
  id: POLICY_ID,
  object: 'url_filter_policy',
  deleted: true,
};

export const EXAMPLE_CATEGORY: Of<typeof ZCategory> = {
  id: 'malware',
  name: 'Malware',
  description: 'Sites hosting malware, ransomware or command-and-control infrastructure.',
  pan_os: ['malware', 'ransomware', 'command-and-control'],
  fortiguard: [26],
};

export const EXAMPLE_AI_CATEGORY: Of<typeof ZCategory> = {
  id: 'ai-chat-assistant',
  name: 'AI chat assistants',
  description: 'General chatbots and assistants.',
  parent: 'artificial-intelligence',
  vendors: ['OpenAI', 'Anthropic', 'Google'],
  domains: ['chatgpt.com', 'chat.openai.com', 'oaiusercontent.com', 'claude.ai'],
};

export const EXAMPLE_RISK_SCORE: Of<typeof ZRiskScore> = {
  object: 'url_risk_score',
  url: 'https://chatgpt-login.help/auth?next=%2Fc%2F4f1c',
  normalized_url: 'https://chatgpt-login.help/auth?next=%2Fc%2F4f1c',
  host: 'chatgpt-login.help',
  registrable_domain: 'chatgpt-login.help',
  categories: [],
  ai_category: null,
  vendor: null,
  risk_score: 50,
  severity: 'medium',
  factors: [
    {
      code: 'brand_impersonation',
      points: 40,
      evidence: 'chatgpt-login.help combines the AI brand "chatgpt" with other words',
    },
    { code: 'suspicious_tld', points: 10, evidence: '.help is among the TLDs most used for phishing' },
  ],
  scoring_version: '1',
  action: 'alert',
  policy_decisions: [
    {
      policy_id: POLICY_ID,
      policy_name: 'Block AI chat',
      action: 'alert',
      rule_id: RISKY_RULE.id,
      matched_on: 'min_risk_score',
      feed_match: null,
    },
  ],
};

export const EXAMPLE_SERVICE_INDEX: Of<typeof ZServiceIndex> = {
  service: 'admin-api',
  status: 'running',
  version: '1.0.0',
  endpoints: {
    'GET /health': { auth: 'none', summary: 'Readiness: Postgres and Redis' },
    'POST /tenants/v1/register': { auth: 'admin', summary: 'Register a tenant' },
    'GET /firewalls/v1': { auth: 'tenant', summary: "List the tenant's firewalls" },
  },
};

export const EXAMPLE_HEALTH: Of<typeof ZHealth> = {
  status: 'ok',
  service: 'admin-api',
  checks: { postgres: { status: 'up', latency_ms: 2 }, redis: { status: 'up', latency_ms: 1 } },
};

export const EXAMPLE_HEALTH_DEGRADED: Of<typeof ZHealth> = {
  status: 'degraded',
  service: 'admin-api',
  checks: {
    postgres: { status: 'up', latency_ms: 3 },
    redis: { status: 'down', error: 'connect ECONNREFUSED 10.0.4.12:6379' },
  },
};

/** A tenant's console session (docs/console.md). */
export const EXAMPLE_CONSOLE_SESSION = {
  object: 'console_session' as const,
  id: 'csn_01m81c8dkkb77xkmqh8h3t4504',
  kind: 'tenant' as const,
  tenant: { id: EXAMPLE_TENANT.id, name: EXAMPLE_TENANT.name, org_id: EXAMPLE_TENANT.org_id },
  csrf_token: 'q2V0LXRoaXMtZnJvbS10aGUtc2Vzc2lvbi1hbnN3ZXI',
  scopes: ['assets:read', 'assets:triage', 'signals:read', 'threats:read', 'threats:write', 'webhooks:write'],
  created: '2026-11-24T09:00:00.000Z',
  expires_at: '2026-11-24T17:00:00.000Z',
  idle_expires_at: '2026-11-24T09:30:00.000Z',
};
