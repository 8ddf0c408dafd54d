// Database rows → API objects. The firewall serializer is the only way a firewall leaves the service, and it
// has no access to the ciphertext: api_token never appears in a response.
import type {
  Tenant,
  TenantToken,
  DeploymentToken,
  Firewall,
  UrlFilterPolicy,
  UrlFilterRule,
  PolicyAssignment,
} from '@risk/db';
import {
  vendorAiCategoryColumns,
  vendorCategoryColumns,
  type AiCategory,
  type CategoryCatalog,
  type GeneralCategory,
} from '@risk/firewalls';
import { ZFirewall, ZPolicyAssignment, ZUrlFilterPolicy, ZUrlFilterRule, type z } from '@risk/contracts';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

// The columns below are text in the database; each serializer narrows them with its response schema's enum (a
// value outside it is a 500, never a response that contradicts the document), and is typed by that schema, so a
// route's handler compiles against its documented response (docs/architecture.md "Routes").

export function serializeTenant(t: Tenant) {
  return {
    object: 'tenant' as const,
    id: t.id,
    name: t.name,
    admin_email: t.admin_email,
    org_id: t.org_id,
    status: t.status as 'active' | 'suspended',
    suspended_at: iso(t.suspended_at),
    created: t.created.toISOString(),
    updated: t.updated.toISOString(),
  };
}

export function tenantTokenStatus(t: TenantToken, now = new Date()) {
  if (t.revoked_at) return 'revoked' as const;
  if (t.expires_at <= now) return 'expired' as const;
  return 'active' as const;
}

/** Never the token itself: it is shown once, by the route that mints it. */
export function serializeTenantToken(t: TenantToken) {
  return {
    object: 'tenant_token' as const,
    id: t.id,
    tenant_id: t.tenant_id,
    name: t.name,
    status: tenantTokenStatus(t),
    expires_at: t.expires_at.toISOString(),
    revoked_at: iso(t.revoked_at),
    last_used_at: iso(t.last_used_at),
    created: t.created.toISOString(),
  };
}

export function deploymentTokenStatus(t: DeploymentToken, now = new Date()) {
  if (t.revoked_at) return 'revoked' as const;
  if (t.expires_at <= now) return 'expired' as const;
  if (t.max_uses !== null && t.use_count >= t.max_uses) return 'exhausted' as const;
  return 'active' as const;
}

export function serializeDeploymentToken(t: DeploymentToken) {
  return {
    object: 'deployment_token' as const,
    id: t.id,
    tenant_id: t.tenant_id,
    name: t.name,
    token_prefix: t.token_prefix,
    status: deploymentTokenStatus(t),
    expires_at: t.expires_at.toISOString(),
    max_uses: t.max_uses,
    use_count: t.use_count,
    revoked_at: iso(t.revoked_at),
    last_used_at: iso(t.last_used_at),
    created: t.created.toISOString(),
  };
}

export function serializeFirewall(f: Firewall): z.input<typeof ZFirewall> {
  return {
    object: 'firewall',
    id: f.id,
    name: f.name,
    type: ZFirewall.shape.type.parse(f.type),
    host: f.host,
    port: f.port,
    verify_ssl: f.verify_ssl,
    api_token_last4: f.api_token_last4,
    status: ZFirewall.shape.status.parse(f.status),
    model: f.model,
    version: f.sw_version,
    last_test: f.last_test_at
      ? { ok: f.last_test_ok, at: iso(f.last_test_at), latency_ms: f.last_test_latency_ms, error: f.last_test_error }
      : null,
    logging: f.logging_updated_at
      ? {
          status: f.logging_status,
          config: f.logging_config,
          error: f.logging_error,
          updated_at: iso(f.logging_updated_at),
        }
      : null,
    created: f.created.toISOString(),
    updated: f.updated.toISOString(),
  };
}

export function serializeRule(r: UrlFilterRule): z.input<typeof ZUrlFilterRule> {
  return {
    object: 'url_filter_rule',
    id: r.id,
    policy_id: r.policy_id,
    position: r.position,
    name: r.name,
    action: ZUrlFilterRule.shape.action.parse(r.action),
    categories: r.categories,
    domains: r.domains,
    min_risk_score: r.min_risk_score,
    min_asset_severity: ZUrlFilterRule.shape.min_asset_severity.parse(r.min_asset_severity),
    enabled: r.enabled,
    created: r.created.toISOString(),
    updated: r.updated.toISOString(),
  };
}

export function serializeAssignment(a: PolicyAssignment): z.input<typeof ZPolicyAssignment> {
  const pushed = a.pushed_objects as { warnings?: string[] } | null;
  return {
    object: 'policy_assignment',
    id: a.id,
    policy_id: a.policy_id,
    firewall_id: a.firewall_id,
    sync_status: ZPolicyAssignment.shape.sync_status.parse(a.sync_status),
    target_version: a.target_version,
    synced_version: a.synced_version,
    last_error: a.last_error,
    last_synced_at: iso(a.last_synced_at),
    warnings: pushed?.warnings ?? [],
  };
}

export type PolicyWithChildren = UrlFilterPolicy & { rules: UrlFilterRule[]; assignments: PolicyAssignment[] };

export function serializePolicy(p: PolicyWithChildren): z.input<typeof ZUrlFilterPolicy> {
  return {
    object: 'url_filter_policy',
    id: p.id,
    name: p.name,
    description: p.description,
    default_action: ZUrlFilterPolicy.shape.default_action.parse(p.default_action),
    version: p.version,
    rules: [...p.rules].sort((a, b) => a.position - b.position).map(serializeRule),
    assignments: p.assignments.map(serializeAssignment),
    created: p.created.toISOString(),
    updated: p.updated.toISOString(),
  };
}

/** A general URL category with each vendor's category column (the vendor registry, @risk/firewalls). */
export function serializeCategory(c: GeneralCategory) {
  return { id: c.id, name: c.name, description: c.description, ...vendorCategoryColumns(c.id) };
}

/** An AI sub-category with each vendor's column, its AI vendors and domains. */
/** An AI category with where it and each of its domains came from (`source`, `domain_sources`). */
export function serializeAiCategory(c: AiCategory, catalog: CategoryCatalog) {
  const sources = new Map(catalog.aiDomains.map((d) => [d.domain, d.source]));
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    parent: c.parent,
    ...vendorAiCategoryColumns(c),
    vendors: c.vendors,
    domains: c.domains,
    source: c.source,
    domain_sources: Object.fromEntries(c.domains.map((d) => [d, sources.get(d) ?? c.source])),
  };
}
