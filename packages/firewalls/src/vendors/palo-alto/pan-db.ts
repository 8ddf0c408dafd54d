// Our categories in PAN-DB terms. Facts live in pan-db.json beside this module (with its `_source`).
import panDb from './pan-db.json';

const byCategory: Record<string, string[] | undefined> = panDb.categories;
const granularByAiCategory: Record<string, string | undefined> = panDb.ai_granular;

/** PAN-DB predefined category names for one of our general categories (empty: none). */
export function panDbNames(categoryId: string): string[] {
  return byCategory[categoryId] ?? [];
}

/** The PAN 'Granular Artificial Intelligence' category for one of our AI categories. */
export function panGranularAiCategory(aiCategoryId: string): string | undefined {
  return granularByAiCategory[aiCategoryId];
}

/** PAN-DB predefined category names a profile must cover (every one gets an action). */
export const panPredefinedCategories: readonly string[] = [
  ...new Set([
    ...Object.values(panDb.categories).flat(),
    ...Object.values(panDb.ai_granular),
    ...panDb.other_predefined,
  ]),
];
