// The one way to mint, list, find and revoke an org's API keys: the operator CLI (`pnpm cli api-keys …`) and the
// admin API's /keys/v1 routes both call these (docs/admin-api.md "API keys").
import { API_KEY_MAX_EXPIRY_DAYS } from '@risk/contracts';
import { lockOrgApiKeys, type PrismaClient } from '@risk/db';
import { buildApiKey, type MintApiKeyInput } from './api-keys';
import { ApiError } from './errors';
import { keysetOrder, keysetWhere, paginate, type PageRequest } from './http/pagination';

/**
 * Active keys an org may hold that were minted by hand (CLI or admin API); keys exchanged from deployment tokens
 * are bounded by their token's max_uses instead. Revoked and expired keys do not count.
 */
export const MAX_ACTIVE_KEYS_PER_ORG = 100;

const DAY_MS = 86_400_000;

const KEY_COLUMNS = {
  id: true,
  org_id: true,
  name: true,
  key_prefix: true,
  last4: true,
  scopes: true,
  livemode: true,
  deployment_token_id: true,
  created: true,
  expires_at: true,
  revoked_at: true,
  last_used_at: true,
} as const;

export interface ApiKeyRow {
  id: string;
  org_id: string;
  name: string | null;
  key_prefix: string;
  last4: string;
  scopes: string[];
  livemode: boolean;
  deployment_token_id: string | null;
  created: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function apiKeyStatus(row: Pick<ApiKeyRow, 'revoked_at' | 'expires_at'>, now = new Date()) {
  if (row.revoked_at) return 'revoked' as const;
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) return 'expired' as const;
  return 'active' as const;
}

/** A key as both the CLI and the admin API show it: never the secret (only `key` in the creation answer). */
export function serializeApiKey(row: ApiKeyRow, secret?: string) {
  return {
    object: 'api_key' as const,
    id: row.id,
    org_id: row.org_id,
    name: row.name,
    key_prefix: row.key_prefix,
    last4: row.last4,
    redacted_key: `${row.key_prefix}…${row.last4}`,
    scopes: row.scopes,
    livemode: row.livemode,
    status: apiKeyStatus(row),
    deployment_token_id: row.deployment_token_id,
    created: row.created.toISOString(),
    expires_at: iso(row.expires_at),
    revoked_at: iso(row.revoked_at),
    last_used_at: iso(row.last_used_at),
    ...(secret === undefined ? {} : { key: secret }),
  };
}
export type SerializedApiKey = ReturnType<typeof serializeApiKey>;

/** An expiry in (now, now + API_KEY_MAX_EXPIRY_DAYS]; `param` names the field that gave it. */
export function checkKeyExpiry(expiresAt: Date, param: string, now = new Date()): Date {
  const ms = expiresAt.getTime();
  if (!Number.isFinite(ms) || ms <= now.getTime() || ms > now.getTime() + API_KEY_MAX_EXPIRY_DAYS * DAY_MS) {
    throw new ApiError('parameter_invalid', {
      param,
      message: `${param} must be in the future and at most ${API_KEY_MAX_EXPIRY_DAYS} days ahead.`,
    });
  }
  return expiresAt;
}

/**
 * Mints a key for an org in one transaction: a per-org advisory lock (two concurrent mints cannot both take the
 * last place), the owning tenant's status (a suspended tenant mints nothing), the per-org limit, the insert.
 * Returns the stored row and the plaintext, which is never stored.
 */
export async function createOrgApiKey(prisma: PrismaClient, input: Omit<MintApiKeyInput, 'deployment_token_id'>) {
  if (input.expires_at) checkKeyExpiry(input.expires_at, 'expires_at');
  const { key, row } = buildApiKey(input);
  return prisma.$transaction(async (tx) => {
    const state = await lockOrgApiKeys(tx, input.org_id);
    if (state.tenant_status !== null && state.tenant_status !== 'active') {
      throw new ApiError('tenant_suspended', {
        message: 'This tenant is suspended: it cannot mint API keys until an admin reactivates it.',
      });
    }
    if (state.active >= MAX_ACTIVE_KEYS_PER_ORG) {
      throw new ApiError('api_key_limit_reached', {
        message: `An org may hold ${MAX_ACTIVE_KEYS_PER_ORG} active API keys; revoke one first.`,
      });
    }
    const stored = await tx.apiKey.create({ data: row, select: KEY_COLUMNS });
    return { row: stored as ApiKeyRow, key };
  });
}

/** One page of an org's keys, newest first (the keyset of docs/public-api.md "Pagination"). */
export async function listOrgApiKeys(
  prisma: Pick<PrismaClient, 'apiKey'>,
  input: { orgId: string; page: PageRequest },
) {
  const { orgId } = input;
  return paginate<ApiKeyRow>(input.page, {
    loadCursor: (id) => prisma.apiKey.findFirst({ where: { id, org_id: orgId }, select: { id: true, created: true } }),
    fetch: ({ before, after, order, take }) =>
      prisma.apiKey.findMany({
        where: { org_id: orgId, ...keysetWhere('id', { before, after }) },
        orderBy: keysetOrder('id', order),
        take,
        select: KEY_COLUMNS,
      }),
  });
}

/** A key by id; `orgId` confines the look-up to one org (a tenant), absent for the operator. */
export async function findApiKey(
  prisma: Pick<PrismaClient, 'apiKey'>,
  input: { id: string; orgId?: string },
): Promise<ApiKeyRow | null> {
  return prisma.apiKey.findFirst({
    where: { id: input.id, ...(input.orgId === undefined ? {} : { org_id: input.orgId }) },
    select: KEY_COLUMNS,
  });
}

/**
 * Revokes a key (idempotent: a revoked key keeps its first revoked_at). The public API refuses it once its key
 * cache entry is older than 5 s (docs/guides/auth-and-scopes.md). `keepDeploymentKeys`: a key exchanged from a
 * deployment token is refused with 409 (the admin API: revoke the token, which revokes every key it minted).
 * Returns null for an unknown key (or one of another org).
 */
export async function revokeApiKey(
  prisma: Pick<PrismaClient, 'apiKey'>,
  input: { id: string; orgId?: string; keepDeploymentKeys?: boolean },
): Promise<ApiKeyRow | null> {
  const where = {
    id: input.id,
    ...(input.orgId === undefined ? {} : { org_id: input.orgId }),
    ...(input.keepDeploymentKeys ? { deployment_token_id: null } : {}),
  };
  await prisma.apiKey.updateMany({ where: { ...where, revoked_at: null }, data: { revoked_at: new Date() } });
  const row = await findApiKey(prisma, input);
  if (row && input.keepDeploymentKeys && row.deployment_token_id !== null) {
    throw new ApiError('api_key_managed_by_deployment_token', {
      param: 'id',
      message: `This key was exchanged from deployment token '${row.deployment_token_id}'; revoke that token instead (it revokes every key it minted).`,
    });
  }
  return row;
}
