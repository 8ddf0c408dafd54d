import { appendRule, type FilterAction } from '@risk/firewalls';
import type { PrismaDeps } from '../deps';
import { serializeRule } from '../serializers';
import { findPolicy } from './find-policy';
import { knownCategoryIds, normalizeRule, type RuleInput } from './normalize-rule';

/** Appends a rule at the last position. */
export async function addRule(
  deps: PrismaDeps,
  request: { tenantId: string; policyId: string; rule: RuleInput & { action: FilterAction } },
) {
  const { prisma } = deps;
  const { policyId, rule: input } = request;
  await findPolicy(prisma, request.tenantId, policyId);
  const normalized = normalizeRule(input, { param: '', known: await knownCategoryIds(deps, [input]) });
  const rule = await appendRule(prisma, { policyId, rule: { ...input, ...normalized } });
  return serializeRule(rule);
}
