import { queueAssignments } from '@risk/firewalls';
import type { PrismaDeps } from '../deps';
import { notFound } from '../errors';
import { serializePolicy } from '../serializers';
import { findPolicy } from './find-policy';

/** Assigns the policy to firewalls of the tenant; the worker pushes it (one firewall_sync outbox row each). */
export async function assignPolicy(
  deps: PrismaDeps,
  input: { tenantId: string; policyId: string; firewallIds: string[] },
) {
  const { prisma } = deps;
  const { tenantId, policyId, firewallIds } = input;
  const policy = await findPolicy(prisma, tenantId, policyId);
  const ids = [...new Set(firewallIds)];
  const firewalls = await prisma.firewall.findMany({
    where: { id: { in: ids }, tenant_id: tenantId },
    select: { id: true },
  });
  const found = new Set(firewalls.map((f) => f.id));
  const missing = ids.findIndex((id) => !found.has(id));
  if (missing >= 0) throw notFound('firewall', ids[missing]!, `firewall_ids[${firewallIds.indexOf(ids[missing]!)}]`);
  await queueAssignments(prisma, { tenantId, policyId, version: policy.version, firewallIds: ids });
  return serializePolicy(await findPolicy(prisma, tenantId, policyId));
}
