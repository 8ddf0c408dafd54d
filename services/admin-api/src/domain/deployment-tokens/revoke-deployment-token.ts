import type { PrismaDeps } from '../deps';
import { notFound } from '../errors';
import { serializeDeploymentToken } from '../serializers';
import { findTenant } from '../tenants/find-tenant';

/** Revoking a token revokes every API key minted from it, in one transaction. */
export async function revokeDeploymentToken(deps: PrismaDeps, input: { tenantId: string; tokenId: string }) {
  const { prisma } = deps;
  await findTenant(prisma, input.tenantId);
  return prisma.$transaction(async (tx) => {
    const token = await tx.deploymentToken.findFirst({ where: { id: input.tokenId, tenant_id: input.tenantId } });
    if (!token) throw notFound('deployment token', input.tokenId, 'token_id');
    const now = new Date();
    const updated = token.revoked_at
      ? token
      : await tx.deploymentToken.update({ where: { id: token.id }, data: { revoked_at: now } });
    await tx.apiKey.updateMany({
      where: { deployment_token_id: token.id, revoked_at: null },
      data: { revoked_at: now },
    });
    return serializeDeploymentToken(updated);
  });
}
