import type { DbDeps } from '../deps';
import { serializeRule } from '../serializers';
import { findRule } from './find-policy';
import { normalizeRule, type RuleInput } from './normalize-rule';
import { bumpAndResync } from './policy-writes';

/** A partial update of one rule; criteria it does not change are kept. */
export async function updateRule(
  deps: DbDeps,
  request: { tenantId: string; policyId: string; ruleId: string; changes: RuleInput },
) {
  const { db } = deps;
  const { policyId, ruleId, changes: input } = request;
  const rule = await findRule(db, request);
  const normalized = normalizeRule(input, '', rule);
  return db.$transaction(async (tx) => {
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
