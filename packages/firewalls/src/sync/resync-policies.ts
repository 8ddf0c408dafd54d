// Marking policies' firewalls for re-sync (docs/firewalls.md "Sync"): bump each policy's version and set its live
// assignments pending at that version with one firewall_sync outbox row each; the worker pushes. Four statements
// whatever the number of policies. Used by every policy change (admin API) and by a category import that changes
// what a policy's AI-category rules expand to (docs/firewalls.md "Category data").
import { writeOutbox } from '@risk/common/outbox';
import { markAssignmentsPending, type Tx } from '@risk/db';
import { AI_PARENT_CATEGORY, shippedCatalog, type CategoryCatalog } from '../categories';

/** statuses of an assignment on its way off the device: a re-sync leaves them alone */
const LEAVING = ['removing', 'removal_failed'];

/** Bump each policy's version and queue a re-sync of its live assignments; returns policy id → new version. */
export async function bumpAndResyncPolicies(tx: Tx, policyIds: readonly string[]): Promise<Map<string, number>> {
  if (!policyIds.length) return new Map();
  const bumped = await tx.urlFilterPolicy.updateManyAndReturn({
    where: { id: { in: [...policyIds] } },
    data: { version: { increment: 1 } },
    select: { id: true, version: true },
  });
  const ids = bumped.map((p) => p.id);
  const versions = bumped.map((p) => p.version);
  const pending = await markAssignmentsPending(tx, { policyIds: ids, versions, leaving: LEAVING });
  await writeOutbox(
    tx,
    pending.map((a) => ({
      kind: 'firewall_sync' as const,
      payload: { assignment_id: a.id, action: 'apply' as const, version: a.version },
    })),
  );
  return new Map(bumped.map((p) => [p.id, p.version]));
}

/**
 * The AI categories whose domain list an import changed: each changed domain's new category and the one it
 * left (its previous operator category, else the shipped category it had), plus the AI parent when a domain
 * joined the list.
 */
export function categoriesChangedByImport(
  changed: ReadonlyArray<{ domain: string; category: string; previous: string | null }>,
  shipped: CategoryCatalog = shippedCatalog,
): string[] {
  const affected = new Set<string>();
  const shippedOf = new Map(shipped.aiDomains.map((e) => [e.domain, e.category]));
  for (const change of changed) {
    affected.add(change.category);
    const left = change.previous ?? shippedOf.get(change.domain) ?? null;
    if (left === null) affected.add(AI_PARENT_CATEGORY);
    else if (left !== change.category) affected.add(left);
  }
  return [...affected].sort();
}

/**
 * Every tenant's policies with an enabled rule naming one of `categoryIds` and a live assignment (operator
 * categories are platform-wide) → bumped and re-synced. One read plus bumpAndResyncPolicies.
 */
export async function resyncPoliciesUsingCategories(
  tx: Tx,
  categoryIds: readonly string[],
): Promise<{ policies: number; assignments: number }> {
  if (!categoryIds.length) return { policies: 0, assignments: 0 };
  const policies = await tx.urlFilterPolicy.findMany({
    where: {
      rules: { some: { enabled: true, categories: { hasSome: [...categoryIds] } } },
      assignments: { some: { sync_status: { notIn: LEAVING } } },
    },
    select: { id: true, _count: { select: { assignments: { where: { sync_status: { notIn: LEAVING } } } } } },
  });
  await bumpAndResyncPolicies(
    tx,
    policies.map((p) => p.id),
  );
  return { policies: policies.length, assignments: policies.reduce((n, p) => n + p._count.assignments, 0) };
}
