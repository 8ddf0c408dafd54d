// What every policy change does in its transaction: bump the version and mark the policy's assignments
// pending with one firewall_sync outbox row each (the worker pushes); and the name-conflict answer.
import { ApiError, writeOutbox } from '@risk/common';
import { Prisma, type Tx } from '@risk/db';

/** A unique-name violation is 409 resource_already_exists on `name`; anything else is rethrown. */
export function nameConflict(err: unknown, name?: string): never {
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
    throw new ApiError('resource_already_exists', {
      param: 'name',
      message: `A policy named '${name}' already exists.`,
    });
  }
  throw err;
}

/** Bump the version and queue a re-sync of every live assignment, inside the caller's transaction. */
export async function bumpAndResync(tx: Tx, policyId: string): Promise<number> {
  const { version } = await tx.urlFilterPolicy.update({
    where: { id: policyId },
    data: { version: { increment: 1 } },
    select: { version: true },
  });
  const assignments = await tx.policyAssignment.findMany({
    where: { policy_id: policyId, sync_status: { notIn: ['removing', 'removal_failed'] } },
    select: { id: true },
  });
  if (assignments.length) {
    await tx.policyAssignment.updateMany({
      where: { id: { in: assignments.map((a) => a.id) } },
      data: { sync_status: 'pending', target_version: version },
    });
    await writeOutbox(
      tx,
      assignments.map((a) => ({
        kind: 'firewall_sync' as const,
        payload: { assignment_id: a.id, action: 'apply' as const, version },
      })),
    );
  }
  return version;
}

/** Positions 1..n in the order given, in one statement (the ids are the policy's own, checked by the caller). */
export async function setRulePositions(tx: Tx, orderedIds: string[]) {
  if (!orderedIds.length) return;
  const positions = orderedIds.map((_, i) => i + 1);
  await tx.$executeRaw`UPDATE url_filter_rules AS r SET position = v.position, updated = now()
    FROM unnest(${orderedIds}::text[], ${positions}::int[]) AS v(id, position) WHERE r.id = v.id`;
}
