// Look-ups every policy use case starts from: another tenant's policy is indistinguishable from a missing one.
import type { PrismaClient, Tx } from '@risk/db';
import { notFound } from '../errors';
import type { PolicyWithChildren } from '../serializers';

export const withChildren = {
  rules: { orderBy: { position: 'asc' as const } },
  assignments: { orderBy: { created: 'asc' as const } },
};

export async function findPolicy(db: PrismaClient | Tx, tenantId: string, id: string): Promise<PolicyWithChildren> {
  const policy = await db.urlFilterPolicy.findFirst({ where: { id, tenant_id: tenantId }, include: withChildren });
  if (!policy) throw notFound('url-filter policy', id, 'id');
  return policy;
}

export async function findRule(db: PrismaClient, input: { tenantId: string; policyId: string; ruleId: string }) {
  const { policyId, ruleId } = input;
  await findPolicy(db, input.tenantId, policyId);
  const rule = await db.urlFilterRule.findFirst({ where: { id: ruleId, policy_id: policyId } });
  if (!rule) throw notFound('rule', ruleId, 'ruleId');
  return rule;
}
