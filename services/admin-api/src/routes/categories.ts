import { defineRoute } from '@risk/common/http';
import { EXAMPLE_AI_CATEGORY, EXAMPLE_CATEGORY, exampleAdminList, ZCategory, zList } from '@risk/contracts';
import { tenantToken } from '../http/route';
import { listAiCategories } from '../domain/categories/list-ai-categories';
import { listCategories } from '../domain/categories/list-categories';

/** The URL categories policy rules can name (tenant token); fixed lists, answered whole (no cursor parameters). */
export const categoryRoutes = [
  defineRoute({
    method: 'get',
    path: '/policies/v1/categories',
    auth: tenantToken,
    doc: {
      examples: { response: exampleAdminList('/policies/v1/categories', [EXAMPLE_CATEGORY]) },
      summary: 'General URL categories',
      response: { description: 'success', schema: zList(ZCategory, 'CategoryList') },
    },
    handler: () => listCategories(),
  }),
  defineRoute({
    method: 'get',
    path: '/policies/v1/categories/ai',
    auth: tenantToken,
    doc: {
      examples: { response: exampleAdminList('/policies/v1/categories/ai', [EXAMPLE_AI_CATEGORY]) },
      summary: 'AI sub-categories and their domains',
      response: { description: 'success', schema: zList(ZCategory, 'AiCategoryList') },
    },
    handler: ({ deps }) => listAiCategories(deps),
  }),
];
