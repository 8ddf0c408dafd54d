// Look-ups every policy use case starts from: another tenant's policy is indistinguishable from a missing one.
import { lockPolicy, type PrismaClient, type Tx } from '@risk/db';
import { ApiError } from '@risk/common/errors';
import { notFound } from '../errors';
import type { PolicyWithChildren } from '../serializers';

export const withChildren = {
  rules: { orderBy: { position: 'asc' as const } },
  assignments: { orderBy: { created: 'asc' as const } },
};

export async function findPolicy(prisma: PrismaClient | Tx, tenantId: string, id: string): Promise<PolicyWithChildren> {
  const policy = await prisma.urlFilterPolicy.findFirst({ where: { id, tenant_id: tenantId }, include: withChildren });
  if (!policy) throw notFound('url-filter policy', id, 'id');
  return policy;
}

export async function findRule(prisma: PrismaClient, input: { tenantId: string; policyId: string; ruleId: string }) {
  const { policyId, ruleId } = input;
  await findPolicy(prisma, input.tenantId, policyId);
  const rule = await prisma.urlFilterRule.findFirst({ where: { id: ruleId, policy_id: policyId } });
  if (!rule) throw notFound('rule', ruleId, 'ruleId');
  return rule;
}

/**
 * In a transaction: locks the policy row (a concurrent change cannot slip between the check and the write) and,
 * when the caller says which version it read, answers 409 version_conflict if the policy has moved on since
 * (docs/admin-api.md "Rules": reorder, policy and rule updates).
 */
export async function lockPolicyAt(
  tx: Tx,
  input: { tenantId: string; policyId: string; expectedVersion: number | undefined },
): Promise<PolicyWithChildren> {
  await lockPolicy(tx, input.policyId);
  const policy = await findPolicy(tx, input.tenantId, input.policyId);
  if (input.expectedVersion !== undefined && input.expectedVersion !== policy.version) {
    throw new ApiError('version_conflict', {
      param: 'expected_version',
      message: `The policy is at version ${policy.version}, not ${input.expectedVersion}; reload it and retry.`,
    });
  }
  return policy;
}
