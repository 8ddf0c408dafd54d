// Typed access to the category data. Facts (categories, AI domains) live in the JSON files beside this module,
// each list with a `_source` and each AI domain with a `source` naming where it comes from; catalog.ts merges them
// with the operator's imports. This module exposes the shipped data (docs/firewalls.md "Category data").
import categoriesFile from './categories.json';
import { classifyHostIn, shippedCatalog, type AiCategory, type AiDomainEntry } from './catalog';

export {
  AI_PARENT_CATEGORY,
  buildCategoryCatalog,
  classifyHostIn,
  shippedCatalog,
  SHIPPED_SOURCE,
  type AiCategory,
  type AiDomainEntry,
  type CategoryCatalog,
  type OperatorCategoryData,
} from './catalog';
export {
  loadCategoryCatalog,
  loadOperatorCategoryIds,
  OPERATOR_CATEGORIES_MAX,
  OPERATOR_DOMAINS_MAX,
} from './load-catalog';

export interface GeneralCategory {
  id: string;
  name: string;
  description: string;
}

export const generalCategories: readonly GeneralCategory[] = categoriesFile.categories;

export const aiDomains: readonly AiDomainEntry[] = shippedCatalog.aiDomains;

export const aiCategories: readonly AiCategory[] = shippedCatalog.aiCategories;

export const allCategoryIds: ReadonlySet<string> = new Set([
  ...generalCategories.map((c) => c.id),
  ...aiCategories.map((c) => c.id),
]);

export const aiCategoryIds: ReadonlySet<string> = shippedCatalog.aiCategoryIds;

/** The AI-list entry covering a host (the host itself or a parent domain), or null. */
export function lookupAiDomain(host: string): AiDomainEntry | null {
  return shippedCatalog.lookupAiDomain(host);
}

/** Categories the shipped data knows for a host: the AI sub-category and its parent, or nothing. */
export function classifyHost(host: string): string[] {
  return classifyHostIn(shippedCatalog, host);
}
