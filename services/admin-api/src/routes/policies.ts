import { defineRoute } from '@risk/common/http';
import {
  EXAMPLE_ASSIGNMENT,
  EXAMPLE_CREATE_POLICY,
  EXAMPLE_CREATE_RULE,
  EXAMPLE_DELETED_POLICY,
  EXAMPLE_POLICY,
  EXAMPLE_RULE,
  exampleAdminList,
  z,
  ZAssignPolicyBody,
  ZCreatePolicyBody,
  ZCreateRuleBody,
  ZDeleted,
  ZForceDeleteQuery,
  zList,
  ZListQuery,
  zPathId,
  ZPolicyUnassignment,
  ZReorderRulesBody,
  ZUpdatePolicyBody,
  ZUpdateRuleBody,
  ZUrlFilterPolicy,
  ZUrlFilterRule,
} from '@risk/contracts';
import { tenantToken } from '../http/route';
import { addRule } from '../domain/policies/add-rule';
import { assignPolicy } from '../domain/policies/assign-policy';
import { createPolicy } from '../domain/policies/create-policy';
import { deletePolicy } from '../domain/policies/delete-policy';
import { deleteRule } from '../domain/policies/delete-rule';
import { getPolicy } from '../domain/policies/get-policy';
import { listPolicies } from '../domain/policies/list-policies';
import { reorderRules } from '../domain/policies/reorder-rules';
import { unassignPolicy } from '../domain/policies/unassign-policy';
import { updatePolicy } from '../domain/policies/update-policy';
import { updateRule } from '../domain/policies/update-rule';

const ZPolicyParams = z.object({ id: zPathId });
const ZRuleParams = z.object({ id: zPathId, ruleId: zPathId });

/**
 * URL-filter policies, their rules and assignments (tenant token). Every change bumps the policy's version
 * and queues a push to its firewalls (the worker's firewall_sync job).
 */
export const policyRoutes = [
  defineRoute({
    method: 'post',
    path: '/policies/v1/url-filter',
    auth: tenantToken,
    body: ZCreatePolicyBody,
    status: 201,
    doc: {
      examples: {
        request: EXAMPLE_CREATE_POLICY,
        response: { ...EXAMPLE_POLICY, version: 1, assignments: [], updated: EXAMPLE_POLICY.created },
      },
      summary: 'Create a URL-filter policy',
      response: { description: 'success', schema: ZUrlFilterPolicy },
      errors: [400, 409],
    },
    handler: ({ deps, auth, body }) => createPolicy(deps, { tenantId: auth.tenantId, policy: body }),
  }),
  defineRoute({
    method: 'get',
    path: '/policies/v1/url-filter',
    auth: tenantToken,
    query: ZListQuery,
    doc: {
      examples: { response: exampleAdminList('/policies/v1/url-filter', [EXAMPLE_POLICY]) },
      summary: 'List policies',
      response: { description: 'success', schema: zList(ZUrlFilterPolicy, 'UrlFilterPolicyList') },
      errors: [400],
    },
    handler: ({ deps, auth, query }) => listPolicies(deps, { tenantId: auth.tenantId, page: query }),
  }),
  defineRoute({
    method: 'get',
    path: '/policies/v1/url-filter/:id',
    auth: tenantToken,
    params: ZPolicyParams,
    doc: {
      examples: { response: EXAMPLE_POLICY },
      summary: 'Retrieve a policy with rules and assignments',
      response: { description: 'success', schema: ZUrlFilterPolicy },
      errors: [404],
    },
    handler: ({ deps, auth, params }) => getPolicy(deps, { tenantId: auth.tenantId, id: params.id }),
  }),
  defineRoute({
    method: 'put',
    path: '/policies/v1/url-filter/:id',
    auth: tenantToken,
    params: ZPolicyParams,
    body: ZUpdatePolicyBody,
    doc: {
      examples: {
        request: { default_action: 'alert', expected_version: 3 },
        response: { ...EXAMPLE_POLICY, default_action: 'alert', version: 4 },
        errors: {
          409: {
            code: 'version_conflict',
            message: 'The policy is at version 4, not 3; reload it and retry.',
          },
        },
      },
      summary: 'Update a policy (partial); bumps version, re-syncs',
      response: { description: 'success', schema: ZUrlFilterPolicy },
      errors: [400, 404, 409],
    },
    handler: ({ deps, auth, params, body }) =>
      updatePolicy(deps, { tenantId: auth.tenantId, id: params.id, changes: body }),
  }),
  defineRoute({
    method: 'delete',
    path: '/policies/v1/url-filter/:id',
    auth: tenantToken,
    params: ZPolicyParams,
    query: ZForceDeleteQuery,
    doc: {
      examples: {
        response: EXAMPLE_DELETED_POLICY,
        errors: {
          409: {
            code: 'policy_assigned',
            message: 'This policy is still assigned to 1 firewall; unassign it first.',
          },
        },
      },
      summary: 'Delete an unassigned policy',
      response: { description: 'success', schema: ZDeleted },
      errors: [404, 409],
    },
    handler: ({ deps, auth, params, query }) =>
      deletePolicy(deps, { tenantId: auth.tenantId, id: params.id, force: query.force === 'true' }),
  }),
  defineRoute({
    method: 'post',
    path: '/policies/v1/url-filter/:id/rules',
    auth: tenantToken,
    params: ZPolicyParams,
    body: ZCreateRuleBody,
    status: 201,
    doc: {
      examples: {
        request: EXAMPLE_CREATE_RULE,
        response: {
          ...EXAMPLE_RULE,
          id: 'rul_01m81c8dkkb77xkmqh8h3t450f',
          position: 3,
          name: 'Block code assistants',
          categories: ['ai-code-assistant'],
          domains: [],
        },
      },
      summary: 'Append a rule',
      response: { description: 'success', schema: ZUrlFilterRule },
      errors: [400, 404],
    },
    handler: ({ deps, auth, params, body }) =>
      addRule(deps, { tenantId: auth.tenantId, policyId: params.id, rule: body }),
  }),
  defineRoute({
    method: 'put',
    path: '/policies/v1/url-filter/:id/rules/:ruleId',
    auth: tenantToken,
    params: ZRuleParams,
    body: ZUpdateRuleBody,
    doc: {
      examples: {
        request: { enabled: false, expected_version: 3 },
        response: { ...EXAMPLE_RULE, enabled: false },
        errors: {
          409: {
            code: 'version_conflict',
            message: 'The policy is at version 4, not 3; reload it and retry.',
          },
        },
      },
      summary: 'Update a rule (partial)',
      response: { description: 'success', schema: ZUrlFilterRule },
      errors: [400, 404, 409],
    },
    handler: ({ deps, auth, params, body }) =>
      updateRule(deps, { tenantId: auth.tenantId, policyId: params.id, ruleId: params.ruleId, changes: body }),
  }),
  defineRoute({
    method: 'delete',
    path: '/policies/v1/url-filter/:id/rules/:ruleId',
    auth: tenantToken,
    params: ZRuleParams,
    doc: {
      examples: { response: { id: EXAMPLE_RULE.id, object: 'url_filter_rule', deleted: true } },
      summary: 'Delete a rule',
      response: { description: 'success', schema: ZDeleted },
      errors: [404],
    },
    handler: ({ deps, auth, params }) =>
      deleteRule(deps, { tenantId: auth.tenantId, policyId: params.id, ruleId: params.ruleId }),
  }),
  defineRoute({
    method: 'post',
    path: '/policies/v1/url-filter/:id/rules/reorder',
    auth: tenantToken,
    params: ZPolicyParams,
    body: ZReorderRulesBody,
    doc: {
      examples: {
        request: { rule_ids: [EXAMPLE_POLICY.rules[1]!.id, EXAMPLE_RULE.id], expected_version: 3 },
        response: {
          ...EXAMPLE_POLICY,
          version: 4,
          rules: [
            { ...EXAMPLE_POLICY.rules[1]!, position: 1 },
            { ...EXAMPLE_RULE, position: 2 },
          ],
        },
        errors: {
          409: {
            code: 'version_conflict',
            message: 'The policy changed since version 3; reload it and retry.',
          },
        },
      },
      summary: 'Reorder rules (a permutation of all rule ids)',
      response: { description: 'success', schema: ZUrlFilterPolicy },
      errors: [400, 404, 409],
    },
    handler: ({ deps, auth, params, body }) =>
      reorderRules(deps, { tenantId: auth.tenantId, policyId: params.id, order: body }),
  }),
  defineRoute({
    method: 'post',
    path: '/policies/v1/url-filter/:id/assign',
    auth: tenantToken,
    params: ZPolicyParams,
    body: ZAssignPolicyBody,
    doc: {
      examples: {
        request: { firewall_ids: [EXAMPLE_ASSIGNMENT.firewall_id] },
        response: {
          ...EXAMPLE_POLICY,
          assignments: [{ ...EXAMPLE_ASSIGNMENT, sync_status: 'pending', synced_version: null, last_synced_at: null }],
        },
      },
      summary: 'Assign to firewalls (pushed by the worker)',
      response: { description: 'success', schema: ZUrlFilterPolicy },
      errors: [400, 404],
    },
    handler: ({ deps, auth, params, body }) =>
      assignPolicy(deps, { tenantId: auth.tenantId, policyId: params.id, firewallIds: body.firewall_ids }),
  }),
  defineRoute({
    method: 'delete',
    path: '/policies/v1/url-filter/:id/assign/:fwId',
    auth: tenantToken,
    params: z.object({ id: zPathId, fwId: zPathId }),
    doc: {
      examples: { response: { ...EXAMPLE_ASSIGNMENT, sync_status: 'removing' } },
      summary: 'Unassign from a firewall (removal runs in the worker; removed at once when nothing was pushed)',
      response: { description: 'success', schema: ZPolicyUnassignment },
      errors: [404],
    },
    handler: ({ deps, auth, params }) =>
      unassignPolicy(deps, { tenantId: auth.tenantId, policyId: params.id, firewallId: params.fwId }),
  }),
];
