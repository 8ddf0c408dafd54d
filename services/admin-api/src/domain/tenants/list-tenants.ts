import { keysetOrder, keysetWhere, listEnvelope, paginate, type ListQuery } from '@risk/common';
import type { DbDeps } from '../deps';
import { serializeTenant } from '../serializers';

export async function listTenants(deps: DbDeps, input: { page: ListQuery }) {
  const { db } = deps;
  const result = await paginate(input.page, {
    loadCursor: (id) => db.tenant.findUnique({ where: { id }, select: { id: true, created: true } }),
    fetch: ({ before, after, order, take }) =>
      db.tenant.findMany({ where: keysetWhere('id', { before, after }), orderBy: keysetOrder('id', order), take }),
  });
  return listEnvelope(
    '/tenants/v1',
    { data: result.data.map(serializeTenant), has_more: result.has_more },
    (t) => t.id,
  );
}
