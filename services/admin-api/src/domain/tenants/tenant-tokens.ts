// Tenant tokens: each signed JWT has a row (its `jti`) so it can be listed and revoked, and every request
// checks that row and the tenant's status (docs/security.md "Tenant credentials and firewall tokens").
import {
  ApiError,
  ID_PREFIXES,
  keysetOrder,
  keysetWhere,
  listEnvelope,
  newId,
  paginate,
  type ListQuery,
} from '@risk/common';
import type { Prisma, PrismaClient } from '@risk/db';
import type { TenantTokenClaims, TenantTokenSigner } from '../../auth';
import { notFound } from '../errors';
import { serializeTenantToken } from '../serializers';
import { getTenant } from './get-tenant';

type TokenWriter = Pick<Prisma.TransactionClient, 'tenantToken'>;

/** last_used_at is written at most once a minute per token: informational, and not a write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Stores the row, then signs the JWT that carries its id; the JWT itself is returned once, never stored. */
export async function issueTenantToken(
  db: TokenWriter,
  signer: TenantTokenSigner,
  input: { tenantId: string; ttlDays: number; name?: string },
) {
  // JWT expiry has second resolution: store the same instant the token carries
  const expiresAt = new Date(Math.floor((Date.now() + input.ttlDays * 86400_000) / 1000) * 1000);
  const row = await db.tenantToken.create({
    data: {
      id: newId(ID_PREFIXES.tenantToken),
      tenant_id: input.tenantId,
      name: input.name ?? null,
      expires_at: expiresAt,
    },
  });
  const token = await signer.sign({ tenantId: input.tenantId, tokenId: row.id, expiresAt });
  return { ...serializeTenantToken(row), token };
}

export async function mintTenantToken(
  db: PrismaClient,
  signer: TenantTokenSigner,
  input: { tenantId: string; ttlDays: number; name?: string },
) {
  await getTenant(db, input.tenantId);
  return issueTenantToken(db, signer, input);
}

export async function listTenantTokens(db: PrismaClient, tenantId: string, page: ListQuery) {
  await getTenant(db, tenantId);
  const result = await paginate(page, {
    loadCursor: (id) =>
      db.tenantToken.findFirst({ where: { id, tenant_id: tenantId }, select: { id: true, created: true } }),
    fetch: ({ before, after, order, take }) =>
      db.tenantToken.findMany({
        where: { tenant_id: tenantId, ...keysetWhere('id', { before, after }) },
        orderBy: keysetOrder('id', order),
        take,
      }),
  });
  return listEnvelope(
    `/tenants/v1/${tenantId}/tokens`,
    { data: result.data.map(serializeTenantToken), has_more: result.has_more },
    (t) => t.id,
  );
}

/** Revocation is permanent: reactivating a suspended tenant does not bring a revoked token back. */
export async function revokeTenantToken(db: PrismaClient, input: { tenantId: string; tokenId: string }) {
  await getTenant(db, input.tenantId);
  // the guard keeps the first revocation time when two revocations race
  await db.tenantToken.updateMany({
    where: { id: input.tokenId, tenant_id: input.tenantId, revoked_at: null },
    data: { revoked_at: new Date() },
  });
  const row = await db.tenantToken.findFirst({ where: { id: input.tokenId, tenant_id: input.tenantId } });
  if (!row) throw notFound('tenant token', input.tokenId, 'token_id');
  return serializeTenantToken(row);
}

interface TokenCheckRow {
  tenant_id: string;
  revoked_at: Date | null;
  last_used_at: Date | null;
  tenant_status: string;
}

/**
 * The per-request check behind a valid signature: one primary-key look-up joined to the tenant. A token
 * without an id (signed before tokens had ids), an unknown id (its tenant was deleted) or a revoked one is
 * 401 token_revoked; a suspended tenant is 403 tenant_suspended.
 */
export async function checkTenantToken(db: PrismaClient, claims: TenantTokenClaims, now = new Date()) {
  if (!claims.tokenId) {
    throw new ApiError('token_revoked', {
      message: 'This tenant token predates token ids and is no longer accepted; mint a new one.',
    });
  }
  const [row] = await db.$queryRaw<TokenCheckRow[]>`
    SELECT tt.tenant_id, tt.revoked_at, tt.last_used_at, t.status AS tenant_status
    FROM tenant_tokens tt JOIN tenants t ON t.id = tt.tenant_id
    WHERE tt.id = ${claims.tokenId}`;
  if (!row || row.tenant_id !== claims.tenantId) {
    throw new ApiError('token_revoked', { message: 'This tenant token no longer exists (its tenant was deleted).' });
  }
  if (row.revoked_at) throw new ApiError('token_revoked', { message: 'This tenant token has been revoked.' });
  if (row.tenant_status !== 'active') throw tenantSuspended();
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db.tenantToken.update({ where: { id: claims.tokenId }, data: { last_used_at: now } });
  }
}

export const tenantSuspended = (param?: string) =>
  new ApiError('tenant_suspended', {
    param,
    message:
      'This tenant is suspended: its tenant tokens, deployment tokens and API keys are refused until an admin reactivates it.',
  });
