// URL-filter policy contracts: policies, rules, assignments, categories (docs/admin-api.md).
import { z } from '../zod';
import { isoDate } from './shared';
import { FEED_SEVERITY_VALUES } from './feeds';

export const FILTER_ACTION_VALUES = ['allow', 'block', 'alert'] as const;

/** matches hosts in the tenant's risk feed at this severity or above: pushed as a reference to the feed (docs/feeds.md) */
const zMinAssetSeverity = z.enum(FEED_SEVERITY_VALUES).nullable().openapi({
  description:
    "matches the tenant's risky AI endpoints at or above this severity; firewalls get a reference to the risk feed (a PAN-OS EDL, a FortiGate external feed)",
});

/** the policy version the caller read: a change made since is refused with 409 version_conflict (docs/admin-api.md "Rules") */
const zExpectedVersion = z.number().int().min(1).optional().openapi({
  description: "the policy's version the change was based on; 409 version_conflict when the policy has changed since",
});

export const ZCreateRuleBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    action: z.enum(FILTER_ACTION_VALUES),
    categories: z.array(z.string().min(1).max(64)).max(50).default([]),
    domains: z.array(z.string().min(1).max(255)).max(500).default([]),
    min_risk_score: z.number().int().min(0).max(100).nullable().optional(),
    min_asset_severity: zMinAssetSeverity.optional(),
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
    min_asset_severity: zMinAssetSeverity.optional(),
    enabled: z.boolean().optional(),
    expected_version: zExpectedVersion,
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
    expected_version: zExpectedVersion,
  })
  .openapi('UpdateUrlFilterPolicyBody');

export const ZReorderRulesBody = z
  .strictObject({
    rule_ids: z.array(z.string().min(1)).max(200),
    expected_version: zExpectedVersion,
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
    min_asset_severity: z.enum(FEED_SEVERITY_VALUES).nullable(),
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

/**
 * The answer of an unassign: the assignment `removing` (the worker removes its objects), or `removed` when its push
 * never reached the device and it was deleted at once (docs/firewalls.md "Assignment sync states").
 */
export const ZPolicyUnassignment = z
  .object({ ...ZPolicyAssignment.shape, sync_status: z.enum(['removing', 'removed']) })
  .openapi('PolicyUnassignment');

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
    source: z
      .string()
      .optional()
      .openapi({ description: 'AI categories: `shipped`, or the source name of the operator import that added it' }),
    domain_sources: z
      .record(z.string(), z.string())
      .optional()
      .openapi({ description: 'AI categories: where each domain came from (a shipped list or an operator import)' }),
  })
  .openapi('UrlCategory');
