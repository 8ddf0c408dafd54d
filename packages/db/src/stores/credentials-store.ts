// The per-request look-ups of credentials (docs/security.md "Tenant credentials and firewall tokens"): an API key by
// its hash, a tenant token by id, a feed token by its secret's hash, each joined to the owning tenant's status in one
// primary-key read; and the per-org lock and count of an API-key mint.
import type { PrismaClient } from '../generated/prisma/client';

type Raw = Pick<PrismaClient, '$queryRaw'>;

/** An API key as authentication reads it. */
export interface ApiKeyCheckRow {
  id: string;
  org_id: string;
  livemode: boolean;
  scopes: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  /** status of the admin tenant that owns the key's org (null for an org no tenant owns) */
  tenant_status: string | null;
}

/** One query: the unique key_hash index, then the unique tenants.org_id index. */
export async function readApiKeyByHash(prisma: Raw, keyHash: string): Promise<ApiKeyCheckRow | undefined> {
  const [row] = await prisma.$queryRaw<ApiKeyCheckRow[]>`
    SELECT k.id, k.org_id, k.livemode, k.scopes, k.expires_at, k.revoked_at, t.status AS tenant_status
    FROM api_keys k LEFT JOIN tenants t ON t.org_id = k.org_id
    WHERE k.key_hash = ${keyHash}`;
  return row;
}

/**
 * For an API-key mint, in the caller's transaction: takes the org's advisory lock (two concurrent mints cannot both
 * take the last place), then reads the owning tenant's status (null: no tenant owns the org) and the org's active
 * keys (not deployment keys).
 */
export async function lockOrgApiKeys(
  tx: Pick<PrismaClient, '$queryRaw' | '$executeRaw'>,
  orgId: string,
): Promise<{ tenant_status: string | null; active: number }> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('api_keys:' || ${orgId}))`;
  const [state] = await tx.$queryRaw<Array<{ tenant_status: string | null; active: number }>>`
    SELECT (SELECT status FROM tenants WHERE org_id = ${orgId}) AS tenant_status,
           (SELECT count(*)::int FROM api_keys WHERE org_id = ${orgId} AND deployment_token_id IS NULL
              AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())) AS active`;
  return state ?? { tenant_status: null, active: 0 };
}

/** A tenant token as its per-request check reads it. */
export interface TenantTokenCheckRow {
  tenant_id: string;
  revoked_at: Date | null;
  last_used_at: Date | null;
  tenant_status: string;
}

export async function readTenantTokenCheck(prisma: Raw, tokenId: string): Promise<TenantTokenCheckRow | undefined> {
  const [row] = await prisma.$queryRaw<TenantTokenCheckRow[]>`
    SELECT tt.tenant_id, tt.revoked_at, tt.last_used_at, t.status AS tenant_status
    FROM tenant_tokens tt JOIN tenants t ON t.id = tt.tenant_id
    WHERE tt.id = ${tokenId}`;
  return row;
}

/** A feed token found by its current or previous secret's hash (`previous`: by the previous one). */
export interface FeedTokenCheckRow {
  id: string;
  tenant_id: string;
  revoked_at: Date | null;
  last_used_at: Date | null;
  previous: boolean;
  previous_expires_at: Date | null;
  tenant_status: string;
}

export async function readFeedTokenBySecretHash(prisma: Raw, hash: string): Promise<FeedTokenCheckRow | undefined> {
  const [row] = await prisma.$queryRaw<FeedTokenCheckRow[]>`
    SELECT ft.id, ft.tenant_id, ft.revoked_at, ft.last_used_at, ft.previous_expires_at,
           (ft.token_hash <> ${hash}) AS previous, t.status AS tenant_status
    FROM feed_tokens ft JOIN tenants t ON t.id = ft.tenant_id
    WHERE ft.token_hash = ${hash} OR ft.previous_token_hash = ${hash}`;
  return row;
}

/** Locks the tenant's row for the caller's transaction (serialises that tenant's console sign-ins). */
export async function lockTenant(tx: Raw, tenantId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM tenants WHERE id = ${tenantId} FOR UPDATE`;
}
