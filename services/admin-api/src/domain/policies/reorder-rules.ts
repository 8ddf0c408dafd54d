import { ApiError } from '@risk/common/errors';
import type { PrismaDeps } from '../deps';
import { serializePolicy } from '../serializers';
import { findPolicy, lockPolicyAt } from './find-policy';
import { setRulePositions } from '@risk/db';
import { bumpAndResync } from '@risk/firewalls';

/** A permutation of all the policy's rule ids, optionally checked against the version the caller read. */
export async function reorderRules(
  deps: PrismaDeps,
  request: { tenantId: string; policyId: string; order: { rule_ids: string[]; expected_version?: number } },
) {
  const { prisma } = deps;
  const { tenantId, policyId, order: input } = request;
  await prisma.$transaction(async (tx) => {
    const policy = await lockPolicyAt(tx, { tenantId, policyId, expectedVersion: input.expected_version });
    const current = new Set(policy.rules.map((r) => r.id));
    const given = new Set(input.rule_ids);
    if (
      given.size !== input.rule_ids.length ||
      given.size !== current.size ||
      [...given].some((id) => !current.has(id))
    ) {
      throw new ApiError('invalid_rule_order', {
        param: 'rule_ids',
        message: 'rule_ids must list every rule of the policy exactly once (a permutation of its rule ids).',
      });
    }
    await setRulePositions(tx, input.rule_ids);
    await bumpAndResync(tx, policyId);
  });
  return serializePolicy(await findPolicy(prisma, tenantId, policyId));
}
