import type { PrismaDeps } from '../deps';
import { findRule } from './find-policy';
import { setRulePositions } from '@risk/db';
import { bumpAndResync } from '@risk/firewalls';

/** Removes a rule and closes the gap in the positions. */
export async function deleteRule(deps: PrismaDeps, input: { tenantId: string; policyId: string; ruleId: string }) {
  const { prisma } = deps;
  const { policyId, ruleId } = input;
  await findRule(prisma, input);
  await prisma.$transaction(async (tx) => {
    await tx.urlFilterRule.delete({ where: { id: ruleId } });
    const rest = await tx.urlFilterRule.findMany({
      where: { policy_id: policyId },
      orderBy: { position: 'asc' },
      select: { id: true },
    });
    await setRulePositions(
      tx,
      rest.map((r) => r.id),
    );
    await bumpAndResync(tx, policyId);
  });
  return { id: ruleId, object: 'url_filter_rule', deleted: true as const };
}
