import { queueRemoval } from '@risk/firewalls';
import type { PrismaDeps } from '../deps';
import { notFound } from '../errors';
import { serializeAssignment } from '../serializers';
import { findPolicy } from './find-policy';

/**
 * Marks the assignment removing; the worker removes the policy's objects from the firewall. One whose push never
 * reached the device is deleted at once and answered `removed` (docs/firewalls.md "Assignment sync states").
 */
export async function unassignPolicy(
  deps: PrismaDeps,
  input: { tenantId: string; policyId: string; firewallId: string },
) {
  const { prisma } = deps;
  const { tenantId, policyId, firewallId } = input;
  await findPolicy(prisma, tenantId, policyId);
  const assignment = await prisma.policyAssignment.findFirst({
    where: { policy_id: policyId, firewall_id: firewallId, tenant_id: tenantId },
  });
  if (!assignment) throw notFound('assignment of this policy to firewall', firewallId, 'fwId');
  const { removed, row } = await queueRemoval(prisma, assignment.id);
  // queueRemoval leaves a kept assignment `removing`
  return { ...serializeAssignment(row), sync_status: removed ? ('removed' as const) : ('removing' as const) };
}
