// POST /keys/v1: a key for the tenant's own org, minted by the same store function as `pnpm cli api-keys create`
// (docs/admin-api.md "API keys"). The secret is in this answer only.
import { checkKeyExpiry, createOrgApiKey, serializeApiKey } from '@risk/common/api-key-store';
import { ApiError } from '@risk/common/errors';
import type { z, ZCreateApiKeyBody } from '@risk/contracts';
import type { PrismaDeps } from '../deps';
import { orgOfTenant } from './org-of-tenant';

const DAY_MS = 86_400_000;

function expiryOf(body: z.output<typeof ZCreateApiKeyBody>): Date | null {
  if (body.expires_in_days !== undefined && body.expires_at !== undefined) {
    throw new ApiError('parameters_exclusive', {
      param: 'expires_at',
      message: 'expires_in_days and expires_at cannot be used together.',
    });
  }
  if (body.expires_in_days !== undefined) return new Date(Date.now() + body.expires_in_days * DAY_MS);
  if (body.expires_at !== undefined) return checkKeyExpiry(new Date(body.expires_at), 'expires_at');
  return null;
}

export async function createApiKey(
  deps: PrismaDeps,
  input: { tenantId: string; body: z.output<typeof ZCreateApiKeyBody> },
) {
  const { body } = input;
  const expiresAt = expiryOf(body);
  const orgId = await orgOfTenant(deps, input.tenantId);
  const { row, key } = await createOrgApiKey(deps.prisma, {
    org_id: orgId,
    scopes: body.scopes,
    livemode: body.livemode,
    expires_at: expiresAt,
    name: body.name,
  });
  return serializeApiKey(row, key);
}
