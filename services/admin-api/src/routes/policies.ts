import { defineRoute } from '@risk/common';
import {
  z,
  zList,
  ZAssignPolicyBody,
  ZCreatePolicyBody,
  ZCreateRuleBody,
  ZDeleted,
  ZForceDeleteQuery,
  ZListQuery,
  zPathId,
  ZPolicyAssignment,
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
    doc: { summary: 'Append a rule', response: { description: 'success', schema: ZUrlFilterRule }, errors: [400, 404] },
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
      summary: 'Update a rule (partial)',
      response: { description: 'success', schema: ZUrlFilterRule },
      errors: [400, 404],
    },
    handler: ({ deps, auth, params, body }) =>
      updateRule(deps, { tenantId: auth.tenantId, policyId: params.id, ruleId: params.ruleId, changes: body }),
  }),
  defineRoute({
    method: 'delete',
    path: '/policies/v1/url-filter/:id/rules/:ruleId',
    auth: tenantToken,
    params: ZRuleParams,
    doc: { summary: 'Delete a rule', response: { description: 'success', schema: ZDeleted }, errors: [404] },
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
      summary: 'Unassign from a firewall (removal runs in the worker)',
      response: { description: 'success', schema: ZPolicyAssignment },
      errors: [404],
    },
    handler: ({ deps, auth, params }) =>
      unassignPolicy(deps, { tenantId: auth.tenantId, policyId: params.id, firewallId: params.fwId }),
  }),
];
