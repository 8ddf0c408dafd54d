// Our categories in FortiGuard terms. Facts live in fortiguard.json beside this module (with its `_source`).
import fortiguard from './fortiguard.json';

const byCategory: Record<string, number[] | undefined> = fortiguard.categories;

/** FortiGuard web filter category ids for one of our general categories (empty: none). */
export function fortiguardIds(categoryId: string): number[] {
  return byCategory[categoryId] ?? [];
}

/** FortiGuard category ids a profile must cover when the default action is not allow. */
export const fortiguardCategoryIds: readonly number[] = [
  ...new Set([...Object.values(fortiguard.categories).flat(), ...fortiguard.other]),
].sort((a, b) => a - b);
