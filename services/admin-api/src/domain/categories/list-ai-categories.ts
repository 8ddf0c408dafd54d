import { aiCategories } from '@risk/firewalls';
import { serializeAiCategory } from '../serializers';

/** The AI sub-categories with their domains, answered whole (a fixed list: no cursor). */
export function listAiCategories() {
  return {
    object: 'list' as const,
    data: aiCategories.map(serializeAiCategory),
    has_more: false,
    url: '/policies/v1/categories/ai',
    next_cursor: null,
  };
}
