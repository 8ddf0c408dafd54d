// The category data as one value (docs/firewalls.md "Category data"): the shipped JSON files merged with the
// operator's own categories and domains (`pnpm cli categories import`, stored in Postgres). Every AI domain and
// AI category says where it came from (`source`). An operator domain that is also shipped replaces the shipped
// entry (the operator's reading of their own network wins); operator categories add AI sub-categories.
import aiCategoriesFile from './ai-categories.json';
import aiDomainsFile from './ai-domains.json';

export interface AiCategory {
  id: string;
  name: string;
  description: string;
  parent: string;
  domains: string[];
  vendors: string[];
  /** `shipped` or the source name of the operator import that added it */
  source: string;
}

export interface AiDomainEntry {
  domain: string;
  category: string;
  vendor: string;
  /** a key of ai-domains.json `_sources`, or the source name of the operator import */
  source: string;
}

export interface OperatorCategoryData {
  categories: ReadonlyArray<{ id: string; name: string; description: string; source: string }>;
  domains: readonly AiDomainEntry[];
}

export interface CategoryCatalog {
  aiCategories: readonly AiCategory[];
  aiDomains: readonly AiDomainEntry[];
  aiCategoryIds: ReadonlySet<string>;
  /** the AI-list entry covering a host (the host itself or a parent domain), or null */
  lookupAiDomain(host: string): AiDomainEntry | null;
}

export const AI_PARENT_CATEGORY: string = aiCategoriesFile.parent;
export const SHIPPED_SOURCE = 'shipped';

export function buildCategoryCatalog(
  operator: OperatorCategoryData = { categories: [], domains: [] },
): CategoryCatalog {
  const byDomain = new Map<string, AiDomainEntry>(aiDomainsFile.domains.map((e) => [e.domain, e]));
  for (const entry of operator.domains) byDomain.set(entry.domain, entry);
  const aiDomains = [...byDomain.values()];
  const shippedIds = new Set(aiCategoriesFile.categories.map((c) => c.id));
  const definitions = [
    ...aiCategoriesFile.categories.map((c) => ({ ...c, source: SHIPPED_SOURCE })),
    ...operator.categories.filter((c) => !shippedIds.has(c.id)),
  ];
  // grouped once: a filter per category was categories × domains (1,000 × 50,000 with a large import)
  const entriesOf = new Map<string, AiDomainEntry[]>();
  for (const entry of aiDomains) {
    const group = entriesOf.get(entry.category);
    if (group) group.push(entry);
    else entriesOf.set(entry.category, [entry]);
  }
  const aiCategories = definitions.map((category) => {
    const entries = entriesOf.get(category.id) ?? [];
    return {
      ...category,
      parent: AI_PARENT_CATEGORY,
      domains: entries.map((entry) => entry.domain),
      vendors: [...new Set(entries.map((entry) => entry.vendor))],
    };
  });
  // the most labels a listed domain has: longer suffixes of a host cannot be listed, so they are not looked up (a
  // host of thousands of labels made this lookup quadratic: docs/security.md "Linear-time parsing and caps")
  const maxLabels = Math.max(1, ...aiDomains.map((entry) => entry.domain.split('.').length));
  return {
    aiCategories,
    aiDomains,
    aiCategoryIds: new Set(aiCategories.map((c) => c.id)),
    lookupAiDomain(host) {
      const labels = host.toLowerCase().replace(/\.$/, '').split('.');
      for (let i = Math.max(0, labels.length - maxLabels); i < labels.length - 1; i++) {
        const entry = byDomain.get(labels.slice(i).join('.'));
        if (entry) return entry;
      }
      return null;
    },
  };
}

/** Categories the catalog knows for a host: the AI sub-category and its parent, or nothing. */
export function classifyHostIn(catalog: CategoryCatalog, host: string): string[] {
  const entry = catalog.lookupAiDomain(host);
  return entry ? [entry.category, AI_PARENT_CATEGORY] : [];
}

/** The shipped data alone: what the compilers, the simulators and code without a database use. */
export const shippedCatalog: CategoryCatalog = buildCategoryCatalog();
