import type { AdminDeps } from '../deps';
import { findTenant } from '../tenants/find-tenant';
import { issueTenantToken } from './issue-tenant-token';

/** A new tenant token (secret shown once); expires_in_days defaults to TENANT_TOKEN_TTL_DAYS. */
export async function mintTenantToken(
  deps: Pick<AdminDeps, 'prisma' | 'signer' | 'tenantTokenTtlDays'>,
  input: { tenantId: string; name?: string; expires_in_days?: number },
) {
  await findTenant(deps.prisma, input.tenantId);
  return issueTenantToken(deps, {
    tenantId: input.tenantId,
    ttlDays: input.expires_in_days ?? deps.tenantTokenTtlDays,
    name: input.name,
  });
}
