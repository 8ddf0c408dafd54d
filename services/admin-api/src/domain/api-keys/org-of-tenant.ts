// The org whose API keys a tenant manages: the tenant's own `org_id`, never one from the request.
import type { PrismaDeps } from '../deps';
import { findTenant } from '../tenants/find-tenant';

export async function orgOfTenant(deps: PrismaDeps, tenantId: string): Promise<string> {
  return (await findTenant(deps.prisma, tenantId)).org_id;
}
