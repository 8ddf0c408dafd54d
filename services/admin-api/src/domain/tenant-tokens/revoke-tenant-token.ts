import type { PrismaDeps } from '../deps';
import { notFound } from '../errors';
import { serializeTenantToken } from '../serializers';
import { findTenant } from '../tenants/find-tenant';

/** Revocation is permanent: reactivating a suspended tenant does not bring a revoked token back. */
export async function revokeTenantToken(deps: PrismaDeps, input: { tenantId: string; tokenId: string }) {
  const { prisma } = deps;
  await findTenant(prisma, input.tenantId);
  // the guard keeps the first revocation time when two revocations race
  await prisma.tenantToken.updateMany({
    where: { id: input.tokenId, tenant_id: input.tenantId, revoked_at: null },
    data: { revoked_at: new Date() },
  });
  const row = await prisma.tenantToken.findFirst({ where: { id: input.tokenId, tenant_id: input.tenantId } });
  if (!row) throw notFound('tenant token', input.tokenId, 'token_id');
  return serializeTenantToken(row);
}
