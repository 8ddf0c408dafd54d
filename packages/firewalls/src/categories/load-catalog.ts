// The merged category data read from Postgres (docs/firewalls.md "Category data"): the shipped lists plus the
// operator's imports, in two bounded queries whatever the caller (an admin API request, a sync job, the CLI).
// Operator categories are platform-wide: every tenant sees them and may name them in policy rules.
import type { PrismaClient } from '@risk/db';
import { buildCategoryCatalog, type CategoryCatalog } from './catalog';

/** the import caps operator data at this many domains (packages/cli categories import) */
export const OPERATOR_DOMAINS_MAX = 50_000;
/** operator categories read at most (far above what an import creates in practice) */
export const OPERATOR_CATEGORIES_MAX = 1000;

type CategoryReader = Pick<PrismaClient, 'operatorAiCategory' | 'operatorAiDomain'>;

export async function loadCategoryCatalog(db: CategoryReader): Promise<CategoryCatalog> {
  const [categories, domains] = await Promise.all([
    db.operatorAiCategory.findMany({ orderBy: { id: 'asc' }, take: OPERATOR_CATEGORIES_MAX }),
    db.operatorAiDomain.findMany({ orderBy: { domain: 'asc' }, take: OPERATOR_DOMAINS_MAX }),
  ]);
  return buildCategoryCatalog({ categories, domains });
}

/** The ids of the operator's categories (one bounded query): what a policy rule may name besides the shipped ones. */
export async function loadOperatorCategoryIds(db: Pick<CategoryReader, 'operatorAiCategory'>): Promise<Set<string>> {
  const rows = await db.operatorAiCategory.findMany({
    select: { id: true },
    orderBy: { id: 'asc' },
    take: OPERATOR_CATEGORIES_MAX,
  });
  return new Set(rows.map((r) => r.id));
}
