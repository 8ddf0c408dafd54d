import { keysetOrder, keysetWhere, listEnvelope, paginate, type ListQuery } from '@risk/common';
import type { DbDeps } from '../deps';
import { serializePolicy } from '../serializers';
import { withChildren } from './find-policy';

export async function listPolicies(deps: DbDeps, input: { tenantId: string; page: ListQuery }) {
  const { db } = deps;
  const { tenantId } = input;
  const result = await paginate(input.page, {
    loadCursor: (id) =>
      db.urlFilterPolicy.findFirst({ where: { id, tenant_id: tenantId }, select: { id: true, created: true } }),
    fetch: ({ before, after, order, take }) =>
      db.urlFilterPolicy.findMany({
        where: { tenant_id: tenantId, ...keysetWhere('id', { before, after }) },
        orderBy: keysetOrder('id', order),
        take,
        include: withChildren,
      }),
  });
  return listEnvelope(
    '/policies/v1/url-filter',
    { data: result.data.map(serializePolicy), has_more: result.has_more },
    (p) => p.id,
  );
}
