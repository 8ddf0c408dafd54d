// Assigning a policy to firewalls and unassigning it: the assignment rows and their firewall_sync outbox
// rows, written in one transaction so the worker's push cannot be lost (docs/firewalls.md "Assignment sync
// states"). Shared by the admin API's use cases and the worker's tests; the caller checks that the policy
// and the firewalls are the tenant's own.
import { writeOutbox } from '@risk/common/outbox';
import { ID_PREFIXES, newId } from '@risk/db';
import { tryLockAssignment, type PolicyAssignment, type PrismaClient } from '@risk/db';

/**
 * New (policy, firewall) pairs are created and existing ones (failed, or being removed) go back to pending at
 * `version`, three statements in all; returns the assignment ids.
 */
export async function queueAssignments(
  prisma: PrismaClient,
  input: { tenantId: string; policyId: string; version: number; firewallIds: string[] },
): Promise<string[]> {
  const { tenantId, policyId, version } = input;
  const ids = [...new Set(input.firewallIds)];
  return prisma.$transaction(async (tx) => {
    await tx.policyAssignment.createMany({
      data: ids.map((firewallId) => ({
        id: newId(ID_PREFIXES.assignment),
        tenant_id: tenantId,
        policy_id: policyId,
        firewall_id: firewallId,
        sync_status: 'pending',
        target_version: version,
      })),
      skipDuplicates: true,
    });
    const where = { policy_id: policyId, firewall_id: { in: ids } };
    await tx.policyAssignment.updateMany({
      where,
      data: {
        sync_status: 'pending',
        target_version: version,
        last_error: null,
        removal_attempts: 0,
        next_attempt_at: null,
      },
    });
    const assignments = await tx.policyAssignment.findMany({ where, select: { id: true } });
    await writeOutbox(
      tx,
      assignments.map((a) => ({
        kind: 'firewall_sync' as const,
        payload: { assignment_id: a.id, action: 'apply' as const, version },
      })),
    );
    return assignments.map((a) => a.id);
  });
}

/**
 * Unassign. An assignment whose push never reached the device (nothing recorded in pushed_objects) and that no
 * sync job is pushing right now is deleted at once: there is nothing to remove, so there is nothing to retry
 * against a firewall that may be unreachable (docs/firewalls.md "Assignment sync states"). Otherwise it is
 * marked removing and its removal queued. Returns the row as it was deleted, or as updated.
 */
export async function queueRemoval(
  prisma: PrismaClient,
  assignmentId: string,
): Promise<{ removed: boolean; row: PolicyAssignment }> {
  return prisma.$transaction(async (tx) => {
    // the sync jobs' own lock (sync/assignment-lock.ts), without waiting: held means a push is in flight, whose
    // objects only its job will record, so the removal must go through the worker after it
    if (await tryLockAssignment(tx, assignmentId)) {
      const current = await tx.policyAssignment.findUnique({ where: { id: assignmentId } });
      if (current && current.pushed_objects === null) {
        await tx.policyAssignment.delete({ where: { id: assignmentId } });
        return { removed: true, row: current };
      }
    }
    const row = await tx.policyAssignment.update({
      where: { id: assignmentId },
      data: { sync_status: 'removing', last_error: null, removal_attempts: 0, next_attempt_at: null },
    });
    await writeOutbox(tx, [
      {
        kind: 'firewall_sync',
        payload: { assignment_id: assignmentId, action: 'remove', version: row.target_version },
      },
    ]);
    return { removed: false, row };
  });
}
