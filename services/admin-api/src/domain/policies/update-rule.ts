import { bumpAndResync } from '@risk/firewalls';
import type { PrismaDeps } from '../deps';
import { serializeRule } from '../serializers';
import { findRule, lockPolicyAt } from './find-policy';
import { knownCategoryIds, normalizeRule, type RuleInput } from './normalize-rule';

/**
 * A partial update of one rule; criteria it does not change are kept. `expected_version` (the policy's version the
 * caller read) makes it 409 version_conflict when the policy changed meanwhile.
 */
export async function updateRule(
  deps: PrismaDeps,
  request: { tenantId: string; policyId: string; ruleId: string; changes: RuleInput & { expected_version?: number } },
) {
  const { prisma } = deps;
  const { policyId, ruleId, changes: input } = request;
  const rule = await findRule(prisma, request);
  const known = await knownCategoryIds(deps, [{ categories: input.categories ?? rule.categories }]);
  const normalized = normalizeRule(input, { param: '', known, existing: rule });
  return prisma.$transaction(async (tx) => {
    await lockPolicyAt(tx, { tenantId: request.tenantId, policyId, expectedVersion: input.expected_version });
    const updated = await tx.urlFilterRule.update({
      where: { id: ruleId },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.action !== undefined ? { action: input.action } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...normalized,
      },
    });
    await bumpAndResync(tx, policyId);
    return serializeRule(updated);
  });
}
