// Operator category data (`pnpm cli categories import`, docs/firewalls.md "Category data"): one transaction,
// three statements whatever the file's size (unnest), so an import is stored whole or not at all. A domain
// imported again takes the new category, vendor and source. `afterWrite` runs in the same transaction with the
// domains whose category the import changed (new ones included), so the caller's follow-up (marking the
// firewalls of policies that use those categories for re-sync) commits with the data or not at all.
import type { PrismaClient } from '../generated/prisma/client';
import type { Tx } from '../index';

export interface OperatorCategoriesWrite {
  categories: Array<{ id: string; name: string; description: string; source: string }>;
  domains: Array<{ domain: string; category: string; vendor: string; source: string }>;
}

/** A domain the import put in a category it was not in: `previous` is its operator category before (null: none). */
export interface ChangedOperatorDomain {
  domain: string;
  category: string;
  previous: string | null;
}

export async function writeOperatorCategories<T = void>(
  db: Pick<PrismaClient, '$transaction'>,
  input: OperatorCategoriesWrite,
  afterWrite?: (tx: Tx, changed: ChangedOperatorDomain[]) => Promise<T>,
): Promise<{ categories: number; domains: number; changed: ChangedOperatorDomain[]; after: T | undefined }> {
  const { categories, domains } = input;
  return db.$transaction(async (tx) => {
    // the rows the import replaces, read (and locked) before the upsert: one statement
    const before = await tx.$queryRaw<Array<{ domain: string; category: string }>>`
      SELECT domain, category FROM operator_ai_domains
       WHERE domain = ANY(${domains.map((x) => x.domain)}::text[]) FOR UPDATE`;
    const previousOf = new Map(before.map((r) => [r.domain, r.category]));
    const changed = domains
      .filter((x) => previousOf.get(x.domain) !== x.category)
      .map((x) => ({ domain: x.domain, category: x.category, previous: previousOf.get(x.domain) ?? null }));
    const c = await tx.$executeRaw`
      INSERT INTO operator_ai_categories (id, name, description, source)
      SELECT * FROM unnest(${categories.map((x) => x.id)}::text[], ${categories.map((x) => x.name)}::text[],
                           ${categories.map((x) => x.description)}::text[], ${categories.map((x) => x.source)}::text[])
      ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description,
        source = EXCLUDED.source, updated = now()`;
    const d = await tx.$executeRaw`
      INSERT INTO operator_ai_domains (domain, category, vendor, source)
      SELECT * FROM unnest(${domains.map((x) => x.domain)}::text[], ${domains.map((x) => x.category)}::text[],
                           ${domains.map((x) => x.vendor)}::text[], ${domains.map((x) => x.source)}::text[])
      ON CONFLICT (domain) DO UPDATE SET category = EXCLUDED.category, vendor = EXCLUDED.vendor,
        source = EXCLUDED.source, updated = now()`;
    const after = afterWrite ? await afterWrite(tx, changed) : undefined;
    return { categories: c, domains: d, changed, after };
  });
}
