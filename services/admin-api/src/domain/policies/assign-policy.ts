import { ID_PREFIXES, newId, writeOutbox } from '@risk/common';
import type { DbDeps } from '../deps';
import { notFound } from '../errors';
import { serializePolicy } from '../serializers';
import { findPolicy } from './find-policy';

/** Assigns the policy to firewalls of the tenant; the worker pushes it (one firewall_sync outbox row each). */
export async function assignPolicy(deps: DbDeps, input: { tenantId: string; policyId: string; firewallIds: string[] }) {
  const { db } = deps;
  const { tenantId, policyId, firewallIds } = input;
  const policy = await findPolicy(db, tenantId, policyId);
  const ids = [...new Set(firewallIds)];
  const firewalls = await db.firewall.findMany({
    where: { id: { in: ids }, tenant_id: tenantId },
    select: { id: true },
  });
  const found = new Set(firewalls.map((f) => f.id));
  const missing = ids.findIndex((id) => !found.has(id));
  if (missing >= 0) throw notFound('firewall', ids[missing]!, `firewall_ids[${firewallIds.indexOf(ids[missing]!)}]`);
  await db.$transaction(async (tx) => {
    // new pairs are created, existing ones (failed, or being removed) go back to pending: three statements in all
    await tx.policyAssignment.createMany({
      data: ids.map((firewallId) => ({
        id: newId(ID_PREFIXES.assignment),
        tenant_id: tenantId,
        policy_id: policyId,
        firewall_id: firewallId,
        sync_status: 'pending',
        target_version: policy.version,
      })),
      skipDuplicates: true,
    });
    const where = { policy_id: policyId, firewall_id: { in: ids } };
    await tx.policyAssignment.updateMany({
      where,
      data: { sync_status: 'pending', target_version: policy.version, last_error: null },
    });
    const assignments = await tx.policyAssignment.findMany({ where, select: { id: true } });
    await writeOutbox(
      tx,
      assignments.map((a) => ({
        kind: 'firewall_sync' as const,
        payload: { assignment_id: a.id, action: 'apply' as const, version: policy.version },
      })),
    );
  });
  return serializePolicy(await findPolicy(db, tenantId, policyId));
}
