import type { ListQuery } from '@risk/contracts';
import type { PrismaDeps } from '../deps';
import { listPage } from '../list-page';
import { serializeFirewall } from '../serializers';

export function listFirewalls(deps: PrismaDeps, input: { tenantId: string; page: ListQuery }) {
  return listPage(deps.prisma.firewall, {
    page: input.page,
    scope: { tenant_id: input.tenantId },
    url: '/firewalls/v1',
    serialize: serializeFirewall,
  });
}
