// Tenant tokens: each signed JWT has a row (its `jti`) so it can be listed and revoked, and every request
// checks that row and the tenant's status (docs/security.md "Tenant credentials and firewall tokens").
import { ID_PREFIXES, newId } from '@risk/db';
import type { Prisma } from '@risk/db';
import type { TenantTokenSigner } from '../../auth';
import { serializeTenantToken } from '../serializers';

/** Stores the row, then signs the JWT that carries its id; the JWT itself is returned once, never stored. */
export async function issueTenantToken(
  deps: { prisma: Pick<Prisma.TransactionClient, 'tenantToken'>; signer: TenantTokenSigner },
  input: { tenantId: string; ttlDays: number; name?: string },
) {
  // JWT expiry has second resolution: store the same instant the token carries
  const expiresAt = new Date(Math.floor((Date.now() + input.ttlDays * 86400_000) / 1000) * 1000);
  const row = await deps.prisma.tenantToken.create({
    data: {
      id: newId(ID_PREFIXES.tenantToken),
      tenant_id: input.tenantId,
      name: input.name ?? null,
      expires_at: expiresAt,
    },
  });
  const token = await deps.signer.sign({ tenantId: input.tenantId, tokenId: row.id, expiresAt });
  return { ...serializeTenantToken(row), token };
}
