// Deployment tokens (`dpl_…`, stored as SHA-256) and their exchange for an API key.
import {
  ApiError,
  DEPLOYMENT_KEY_SCOPES,
  ID_PREFIXES,
  buildApiKey,
  keysetOrder,
  keysetWhere,
  listEnvelope,
  newId,
  paginate,
  randomToken,
  sha256Hex,
  type ListQuery,
} from '@risk/common';
import type { PrismaClient } from '@risk/db';
import { notFound } from '../errors';
import { deploymentTokenStatus, serializeDeploymentToken } from '../serializers';
import { tenantSuspended } from './tenant-tokens';
import { getTenant } from './get-tenant';

export async function createDeploymentToken(
  db: PrismaClient,
  input: { tenantId: string; name?: string; expires_in_hours: number; max_uses?: number },
) {
  await getTenant(db, input.tenantId);
  const token = `dpl_${randomToken(32)}`;
  const row = await db.deploymentToken.create({
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

export async function listDeploymentTokens(db: PrismaClient, tenantId: string, page: ListQuery) {
  await getTenant(db, tenantId);
  const result = await paginate(page, {
    loadCursor: (id) =>
      db.deploymentToken.findFirst({ where: { id, tenant_id: tenantId }, select: { id: true, created: true } }),
    fetch: ({ before, after, order, take }) =>
      db.deploymentToken.findMany({
        where: { tenant_id: tenantId, ...keysetWhere('id', { before, after }) },
        orderBy: keysetOrder('id', order),
        take,
      }),
  });
  return listEnvelope(
    `/tenants/v1/${tenantId}/deployment-tokens`,
    { data: result.data.map(serializeDeploymentToken), has_more: result.has_more },
    (t) => t.id,
  );
}

/** Revoking a token revokes every API key minted from it, in one transaction. */
export async function revokeDeploymentToken(db: PrismaClient, input: { tenantId: string; tokenId: string }) {
  await getTenant(db, input.tenantId);
  return db.$transaction(async (tx) => {
    const token = await tx.deploymentToken.findFirst({ where: { id: input.tokenId, tenant_id: input.tenantId } });
    if (!token) throw notFound('deployment token', input.tokenId, 'token_id');
    const now = new Date();
    const updated = token.revoked_at
      ? token
      : await tx.deploymentToken.update({ where: { id: token.id }, data: { revoked_at: now } });
    await tx.apiKey.updateMany({
      where: { deployment_token_id: token.id, revoked_at: null },
      data: { revoked_at: now },
    });
    return serializeDeploymentToken(updated);
  });
}

/** GET /deploy/v1/credentials: a valid token is used once more and yields a fresh API key. */
export async function exchangeDeploymentToken(db: PrismaClient, input: { token: string; apiBaseUrl: string }) {
  const hash = sha256Hex(input.token);
  return db.$transaction(async (tx) => {
    const token = await tx.deploymentToken.findUnique({ where: { token_hash: hash }, include: { tenant: true } });
    if (!token) throw new ApiError('token_invalid', { param: 'token', message: 'Invalid deployment token.' });
    const status = deploymentTokenStatus(token);
    if (status === 'revoked')
      throw new ApiError('token_revoked', { param: 'token', message: 'This deployment token has been revoked.' });
    if (status === 'expired')
      throw new ApiError('token_expired', { param: 'token', message: 'This deployment token has expired.' });
    if (status === 'exhausted')
      throw new ApiError('token_exhausted', {
        param: 'token',
        message: 'This deployment token has reached its max_uses.',
      });
    if (token.tenant.status !== 'active') throw tenantSuspended('token');
    // guarded increment: two concurrent exchanges cannot both take the last use
    const claimed = await tx.deploymentToken.updateMany({
      where: {
        id: token.id,
        revoked_at: null,
        ...(token.max_uses !== null ? { use_count: { lt: token.max_uses } } : {}),
      },
      data: { use_count: { increment: 1 }, last_used_at: new Date() },
    });
    if (claimed.count !== 1)
      throw new ApiError('token_exhausted', {
        param: 'token',
        message: 'This deployment token has reached its max_uses.',
      });
    const { row, minted } = buildApiKey({
      org_id: token.tenant.org_id,
      scopes: DEPLOYMENT_KEY_SCOPES,
      livemode: true,
      name: `deployment ${token.name ?? token.id}`,
      deployment_token_id: token.id,
    });
    await tx.apiKey.create({ data: row });
    return {
      object: 'deployment_credentials' as const,
      tenant_id: token.tenant_id,
      org_id: token.tenant.org_id,
      api_base_url: input.apiBaseUrl,
      api_key: {
        id: minted.id,
        key: minted.key,
        scopes: minted.scopes,
        livemode: minted.livemode,
        expires_at: minted.expires_at,
      },
    };
  });
}
