import { insertPolicy, type FilterAction } from '@risk/firewalls';
import type { PrismaDeps } from '../deps';
import { serializePolicy } from '../serializers';
import { findPolicy } from './find-policy';
import { nameConflict } from './name-conflict';
import { knownCategoryIds, normalizeRule, type RuleInput } from './normalize-rule';

export async function createPolicy(
  deps: PrismaDeps,
  request: {
    tenantId: string;
    policy: {
      name: string;
      description?: string;
      default_action: FilterAction;
      rules: Array<RuleInput & { action: FilterAction }>;
    };
  },
) {
  const { prisma } = deps;
  const { tenantId, policy: input } = request;
  const known = await knownCategoryIds(deps, input.rules);
  const rules = input.rules.map((r, i) => ({ ...r, ...normalizeRule(r, { param: `rules[${i}].`, known }) }));
  let id: string;
  try {
    id = await insertPolicy(prisma, { tenantId, policy: { ...input, rules } });
  } catch (err) {
    nameConflict(err, input.name);
  }
  return serializePolicy(await findPolicy(prisma, tenantId, id));
}
