// GET /keys/v1/{id}: one key of the tenant's org; another org's key is 404 like an unknown one.
import { findApiKey, serializeApiKey } from '@risk/common/api-key-store';
import type { PrismaDeps } from '../deps';
import { notFound } from '../errors';
import { orgOfTenant } from './org-of-tenant';

export async function getApiKey(deps: PrismaDeps, input: { tenantId: string; id: string }) {
  const orgId = await orgOfTenant(deps, input.tenantId);
  const row = await findApiKey(deps.prisma, { id: input.id, orgId });
  if (!row) throw notFound('API key', input.id, 'id');
  return serializeApiKey(row);
}
