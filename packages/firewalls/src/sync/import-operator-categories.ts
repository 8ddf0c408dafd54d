// Storing a parsed category import (docs/firewalls.md "Category data"): the rows, and in the same transaction the
// re-sync of every policy whose AI-category rules now expand to other domains (resync-policies.ts). A running
// worker relays the outbox rows and pushes; without one the assignments stay `pending` until it starts.
import { writeOperatorCategories, type OperatorCategoriesWrite, type PrismaClient } from '@risk/db';
import { categoriesChangedByImport, resyncPoliciesUsingCategories } from './resync-policies';

export interface OperatorImportResult {
  categories: number;
  domains: number;
  /** domains whose category the import set or changed (a re-import of the same rows changes none) */
  changed_domains: number;
  /** the AI categories whose domain list changed */
  changed_categories: string[];
  resynced_policies: number;
  resynced_assignments: number;
}

export async function importOperatorCategories(
  db: Pick<PrismaClient, '$transaction'>,
  input: OperatorCategoriesWrite,
): Promise<OperatorImportResult> {
  let changedCategories: string[] = [];
  const written = await writeOperatorCategories(db, input, (tx, changed) => {
    changedCategories = categoriesChangedByImport(changed);
    return resyncPoliciesUsingCategories(tx, changedCategories);
  });
  return {
    categories: written.categories,
    domains: written.domains,
    changed_domains: written.changed.length,
    changed_categories: changedCategories,
    resynced_policies: written.after?.policies ?? 0,
    resynced_assignments: written.after?.assignments ?? 0,
  };
}
