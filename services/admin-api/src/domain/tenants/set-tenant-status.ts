import type { PrismaDeps } from '../deps';
import { serializeTenant } from '../serializers';
import { findTenant } from './find-tenant';

/**
 * Suspension stops every credential of the tenant at once without touching them: tenant tokens and
 * deployment tokens are checked against the tenant's status on every use, and the public API's key
 * look-up joins the tenant by org_id. Reactivation therefore restores exactly the credentials that were
 * valid before (revoked or expired ones stay so). Both are idempotent.
 */
export async function setTenantStatus(deps: PrismaDeps, input: { id: string; status: 'active' | 'suspended' }) {
  const { prisma } = deps;
  const tenant = await findTenant(prisma, input.id);
  if (tenant.status === input.status) return serializeTenant(tenant);
  const updated = await prisma.tenant.update({
    where: { id: input.id },
    data: { status: input.status, suspended_at: input.status === 'suspended' ? new Date() : null },
  });
  return serializeTenant(updated);
}
