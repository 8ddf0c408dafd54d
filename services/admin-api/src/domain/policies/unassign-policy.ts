import { writeOutbox } from '@risk/common';
import type { DbDeps } from '../deps';
import { notFound } from '../errors';
import { serializeAssignment } from '../serializers';
import { findPolicy } from './find-policy';

/** Marks the assignment removing; the worker removes the policy's objects from the firewall. */
export async function unassignPolicy(deps: DbDeps, input: { tenantId: string; policyId: string; firewallId: string }) {
  const { db } = deps;
  const { tenantId, policyId, firewallId } = input;
  await findPolicy(db, tenantId, policyId);
  const assignment = await db.policyAssignment.findFirst({
    where: { policy_id: policyId, firewall_id: firewallId, tenant_id: tenantId },
  });
  if (!assignment) throw notFound('assignment of this policy to firewall', firewallId, 'fwId');
  const updated = await db.$transaction(async (tx) => {
    const row = await tx.policyAssignment.update({
      where: { id: assignment.id },
      data: { sync_status: 'removing', last_error: null },
    });
    await writeOutbox(tx, [
      {
        kind: 'firewall_sync',
        payload: { assignment_id: assignment.id, action: 'remove', version: row.target_version },
      },
    ]);
    return row;
  });
  return serializeAssignment(updated);
}
