import type { ListQuery } from '@risk/contracts';
import type { PrismaDeps } from '../deps';
import { listPage } from '../list-page';
import { serializeTenant } from '../serializers';

export function listTenants(deps: PrismaDeps, input: { page: ListQuery }) {
  return listPage(deps.prisma.tenant, { page: input.page, scope: {}, url: '/tenants/v1', serialize: serializeTenant });
}
