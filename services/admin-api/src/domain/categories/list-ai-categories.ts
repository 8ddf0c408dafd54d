import type { PrismaDeps } from '../deps';
import { serializeAiCategory } from '../serializers';
import { loadCategoryCatalog } from '@risk/firewalls';

/** The AI sub-categories with their domains, shipped and operator-imported, answered whole (no cursor). */
export async function listAiCategories(deps: PrismaDeps) {
  const catalog = await loadCategoryCatalog(deps.prisma);
  return {
    object: 'list' as const,
    data: catalog.aiCategories.map((c) => serializeAiCategory(c, catalog)),
    has_more: false,
    url: '/policies/v1/categories/ai',
    next_cursor: null,
  };
}
