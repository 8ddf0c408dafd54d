import { keysetOrder, keysetWhere, listEnvelope, paginate, type ListQuery } from '@risk/common';
import type { DbDeps } from '../deps';
import { serializeFirewall } from '../serializers';

export async function listFirewalls(deps: DbDeps, input: { tenantId: string; page: ListQuery }) {
  const { db } = deps;
  const { tenantId } = input;
  const result = await paginate(input.page, {
    loadCursor: (id) =>
      db.firewall.findFirst({ where: { id, tenant_id: tenantId }, select: { id: true, created: true } }),
    fetch: ({ before, after, order, take }) =>
      db.firewall.findMany({
        where: { tenant_id: tenantId, ...keysetWhere('id', { before, after }) },
        orderBy: keysetOrder('id', order),
        take,
      }),
  });
  return listEnvelope(
    '/firewalls/v1',
    { data: result.data.map(serializeFirewall), has_more: result.has_more },
    (f) => f.id,
  );
}
