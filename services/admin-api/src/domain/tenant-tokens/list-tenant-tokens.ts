import { keysetOrder, keysetWhere, listEnvelope, paginate, type ListQuery } from '@risk/common';
import type { DbDeps } from '../deps';
import { serializeTenantToken } from '../serializers';
import { findTenant } from '../tenants/find-tenant';

export async function listTenantTokens(deps: DbDeps, input: { tenantId: string; page: ListQuery }) {
  const { db } = deps;
  const { tenantId } = input;
  await findTenant(db, tenantId);
  const result = await paginate(input.page, {
    loadCursor: (id) =>
      db.tenantToken.findFirst({ where: { id, tenant_id: tenantId }, select: { id: true, created: true } }),
    fetch: ({ before, after, order, take }) =>
      db.tenantToken.findMany({
        where: { tenant_id: tenantId, ...keysetWhere('id', { before, after }) },
        orderBy: keysetOrder('id', order),
        take,
      }),
  });
  return listEnvelope(
    `/tenants/v1/${tenantId}/tokens`,
    { data: result.data.map(serializeTenantToken), has_more: result.has_more },
    (t) => t.id,
  );
}
