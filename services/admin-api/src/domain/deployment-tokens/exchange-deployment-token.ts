import { DEPLOYMENT_KEY_SCOPES, buildApiKey } from '@risk/common/api-keys';
import { sha256Hex } from '@risk/common/crypto';
import { ApiError } from '@risk/common/errors';
import type { AdminDeps } from '../deps';
import { deploymentTokenStatus } from '../serializers';
import { tenantSuspended } from '../tenant-tokens/check-tenant-token';

/** GET /deploy/v1/credentials: a valid token is used once more and yields a fresh API key. */
export async function exchangeDeploymentToken(deps: Pick<AdminDeps, 'prisma' | 'config'>, input: { token: string }) {
  const hash = sha256Hex(input.token);
  return deps.prisma.$transaction(async (tx) => {
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
      api_base_url: deps.config.PUBLIC_API_BASE_URL,
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
