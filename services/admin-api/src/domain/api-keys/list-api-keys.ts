// GET /keys/v1: the tenant's org's keys, newest first, never a secret (deployment-token keys included).
import { listEnvelope, listOrgApiKeys, serializeApiKey, type ListQuery } from '@risk/common';
import type { PrismaDeps } from '../deps';
import { orgOfTenant } from './org-of-tenant';

export async function listApiKeys(deps: PrismaDeps, input: { tenantId: string; page: ListQuery }) {
  const orgId = await orgOfTenant(deps, input.tenantId);
  const page = await listOrgApiKeys(deps.prisma, { orgId, page: input.page });
  return listEnvelope(
    '/keys/v1',
    { data: page.data.map((k) => serializeApiKey(k)), has_more: page.has_more },
    (k) => k.id,
  );
}
