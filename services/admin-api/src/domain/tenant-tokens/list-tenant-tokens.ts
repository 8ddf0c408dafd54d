import type { ListQuery } from '@risk/contracts';
import type { PrismaDeps } from '../deps';
import { listPage } from '../list-page';
import { serializeTenantToken } from '../serializers';
import { findTenant } from '../tenants/find-tenant';

export async function listTenantTokens(deps: PrismaDeps, input: { tenantId: string; page: ListQuery }) {
  const { tenantId } = input;
  await findTenant(deps.prisma, tenantId);
  return listPage(deps.prisma.tenantToken, {
    page: input.page,
    scope: { tenant_id: tenantId },
    url: `/tenants/v1/${tenantId}/tokens`,
    serialize: serializeTenantToken,
  });
}
