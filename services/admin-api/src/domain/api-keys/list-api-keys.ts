// GET /keys/v1: the tenant's org's keys, newest first, never a secret (deployment-token keys included).
import { listOrgApiKeys, serializeApiKey } from '@risk/common/api-key-store';
import { listEnvelope } from '@risk/common/http';
import { type ListQuery } from '@risk/contracts';
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
