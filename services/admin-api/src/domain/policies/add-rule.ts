import { ID_PREFIXES, newId } from '@risk/common';
import type { FilterAction } from '@risk/firewalls';
import type { DbDeps } from '../deps';
import { serializeRule } from '../serializers';
import { findPolicy } from './find-policy';
import { normalizeRule, type RuleInput } from './normalize-rule';
import { bumpAndResync } from './policy-writes';

/** Appends a rule at the last position. */
export async function addRule(
  deps: DbDeps,
  request: { tenantId: string; policyId: string; rule: RuleInput & { action: FilterAction } },
) {
  const { db } = deps;
  const { policyId, rule: input } = request;
  await findPolicy(db, request.tenantId, policyId);
  const normalized = normalizeRule(input, '');
  return db.$transaction(async (tx) => {
    const last = await tx.urlFilterRule.aggregate({ where: { policy_id: policyId }, _max: { position: true } });
    const rule = await tx.urlFilterRule.create({
      data: {
        id: newId(ID_PREFIXES.rule),
        policy_id: policyId,
        position: (last._max.position ?? 0) + 1,
        name: input.name ?? null,
        action: input.action,
        ...normalized,
        enabled: input.enabled ?? true,
      },
    });
    await bumpAndResync(tx, policyId);
    return serializeRule(rule);
  });
}
