import { generalCategories } from '@risk/firewalls';
import { serializeCategory } from '../serializers';

/** The general URL categories policies can name, answered whole (a fixed list: no cursor). */
export function listCategories() {
  return {
    object: 'list' as const,
    data: generalCategories.map(serializeCategory),
    has_more: false,
    url: '/policies/v1/categories',
    next_cursor: null,
  };
}
