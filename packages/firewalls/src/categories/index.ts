// Typed access to the category data. Facts (categories, AI domains) live in the JSON files
// beside this module, each with a `_source` naming where it comes from; this module only indexes them.
import categoriesFile from './categories.json';
import aiCategoriesFile from './ai-categories.json';
import aiDomainsFile from './ai-domains.json';

export interface GeneralCategory {
  id: string;
  name: string;
  description: string;
}

export interface AiCategory {
  id: string;
  name: string;
  description: string;
  parent: string;
  domains: string[];
  vendors: string[];
}

export interface AiDomainEntry {
  domain: string;
  category: string;
  vendor: string;
}

export const AI_PARENT_CATEGORY: string = aiCategoriesFile.parent;

export const generalCategories: readonly GeneralCategory[] = categoriesFile.categories;

export const aiDomains: readonly AiDomainEntry[] = aiDomainsFile.domains;

export const aiCategories: readonly AiCategory[] = aiCategoriesFile.categories.map((category) => {
  const entries = aiDomains.filter((entry) => entry.category === category.id);
  return {
    ...category,
    parent: aiCategoriesFile.parent,
    domains: entries.map((entry) => entry.domain),
    vendors: [...new Set(entries.map((entry) => entry.vendor))],
  };
});

export const allCategoryIds: ReadonlySet<string> = new Set([
  ...generalCategories.map((c) => c.id),
  ...aiCategories.map((c) => c.id),
]);

export const aiCategoryIds: ReadonlySet<string> = new Set(aiCategories.map((c) => c.id));

const aiDomainIndex = new Map(aiDomains.map((entry) => [entry.domain, entry]));
// the most labels a listed domain has: longer suffixes of a host cannot be listed, so they are not looked up (a host
// of thousands of labels made this lookup quadratic: docs/security.md "Linear-time parsing and caps")
const AI_DOMAIN_MAX_LABELS = Math.max(1, ...aiDomains.map((entry) => entry.domain.split('.').length));

/** The AI-list entry covering a host (the host itself or a parent domain), or null. */
export function lookupAiDomain(host: string): AiDomainEntry | null {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  for (let i = Math.max(0, labels.length - AI_DOMAIN_MAX_LABELS); i < labels.length - 1; i++) {
    const entry = aiDomainIndex.get(labels.slice(i).join('.'));
    if (entry) return entry;
  }
  return null;
}

/** Categories our data knows for a host: the AI sub-category and its parent, or nothing. */
export function classifyHost(host: string): string[] {
  const entry = lookupAiDomain(host);
  return entry ? [entry.category, AI_PARENT_CATEGORY] : [];
}
