// DELETE /keys/v1/{id}: revokes a key of the tenant's org with the CLI's store function (idempotent). A key
// exchanged from a deployment token is 409: its token is revoked instead (docs/admin-api.md "API keys").
import { revokeApiKey as revokeStoredApiKey, serializeApiKey } from '@risk/common/api-key-store';
import type { PrismaDeps } from '../deps';
import { notFound } from '../errors';
import { orgOfTenant } from './org-of-tenant';

export async function revokeApiKey(deps: PrismaDeps, input: { tenantId: string; id: string }) {
  const orgId = await orgOfTenant(deps, input.tenantId);
  const row = await revokeStoredApiKey(deps.prisma, { id: input.id, orgId, keepDeploymentKeys: true });
  if (!row) throw notFound('API key', input.id, 'id');
  return serializeApiKey(row);
}
