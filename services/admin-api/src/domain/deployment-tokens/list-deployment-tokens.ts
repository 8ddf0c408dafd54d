import type { ListQuery } from '@risk/contracts';
import type { PrismaDeps } from '../deps';
import { listPage } from '../list-page';
import { serializeDeploymentToken } from '../serializers';
import { findTenant } from '../tenants/find-tenant';

export async function listDeploymentTokens(deps: PrismaDeps, input: { tenantId: string; page: ListQuery }) {
  const { tenantId } = input;
  await findTenant(deps.prisma, tenantId);
  return listPage(deps.prisma.deploymentToken, {
    page: input.page,
    scope: { tenant_id: tenantId },
    url: `/tenants/v1/${tenantId}/deployment-tokens`,
    serialize: serializeDeploymentToken,
  });
}
