// Deployment tokens (`dpl_…`, stored as SHA-256): exchanged once per use for an API key.
import { randomToken, sha256Hex } from '@risk/common/crypto';
import { ID_PREFIXES, newId } from '@risk/db';
import type { PrismaDeps } from '../deps';
import { serializeDeploymentToken } from '../serializers';
import { findTenant } from '../tenants/find-tenant';

export async function createDeploymentToken(
  deps: PrismaDeps,
  input: { tenantId: string; name?: string; expires_in_hours: number; max_uses?: number },
) {
  const { prisma } = deps;
  await findTenant(prisma, input.tenantId);
  const token = `dpl_${randomToken(32)}`;
  const row = await prisma.deploymentToken.create({
    data: {
      id: newId(ID_PREFIXES.deploymentToken),
      tenant_id: input.tenantId,
      name: input.name ?? null,
      token_hash: sha256Hex(token),
      token_prefix: token.slice(0, 12),
      expires_at: new Date(Date.now() + input.expires_in_hours * 3600_000),
      max_uses: input.max_uses ?? null,
    },
  });
  return { ...serializeDeploymentToken(row), token };
}
