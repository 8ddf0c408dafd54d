// POST /console/v1/session (docs/console.md "Sign-in and access"): the admin token or a tenant token, checked
// exactly as the admin routes check it, is exchanged for a session. A tenant session gets two credentials of its
// own, minted here and revoked at sign-out: a tenant token (the admin routes) and an org API key with the
// console's scopes (the public-API proxy), both expiring with the session and kept encrypted.
import { ApiError, buildApiKey, encryptSecret, ID_PREFIXES, newId } from '@risk/common';
import { isAdminToken } from '../../auth';
import type { AdminDeps } from '../deps';
import { checkTenantToken } from '../tenant-tokens/check-tenant-token';
import { issueTenantToken } from '../tenant-tokens/issue-tenant-token';
import { CONSOLE_ABSOLUTE_MS, CONSOLE_KEY_SCOPES, newSessionSecret, sessionSecretHash } from './session-secrets';
import type { ConsoleSessionRow } from './serialize-session';

type SignInDeps = Pick<AdminDeps, 'prisma' | 'config' | 'signer'>;

export async function signInToConsole(deps: SignInDeps, input: { token: string }) {
  const { token } = input;
  const secret = newSessionSecret();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + CONSOLE_ABSOLUTE_MS);
  const base = {
    id: newId(ID_PREFIXES.consoleSession),
    secret_hash: sessionSecretHash(secret),
    created: now,
    last_seen_at: now,
    expires_at: expiresAt,
  };
  if (isAdminToken(token, deps.config.ADMIN_API_TOKEN)) {
    const row = await deps.prisma.consoleSession.create({ data: { ...base, kind: 'admin' } });
    return { secret, row: { ...row, tenant: null } satisfies ConsoleSessionRow };
  }
  const claims = await deps.signer.verify(token).catch((err: unknown) => {
    if (err instanceof ApiError && err.code === 'token_expired') throw err;
    throw new ApiError('token_invalid', { param: 'token', message: 'Not the admin token nor a valid tenant token.' });
  });
  await checkTenantToken(deps, { claims, now });
  const secretsKey = deps.config.SECRETS_KEY ?? '';
  const row = await deps.prisma.$transaction(async (tx) => {
    const tenant = await tx.tenant.findUniqueOrThrow({ where: { id: claims.tenantId } });
    const sessionToken = await issueTenantToken(
      { prisma: tx, signer: deps.signer },
      { tenantId: tenant.id, ttlDays: CONSOLE_ABSOLUTE_MS / 86400_000, name: `console session ${base.id}` },
    );
    const { row: keyRow, key } = buildApiKey({
      org_id: tenant.org_id,
      scopes: CONSOLE_KEY_SCOPES,
      livemode: true,
      name: `console session ${base.id}`,
      expires_at: expiresAt,
    });
    await tx.apiKey.create({ data: keyRow });
    const created = await tx.consoleSession.create({
      data: {
        ...base,
        kind: 'tenant',
        tenant_id: tenant.id,
        signin_token_id: claims.tokenId,
        session_token_id: sessionToken.id,
        tenant_token_ciphertext: encryptSecret(sessionToken.token, secretsKey),
        api_key_id: keyRow.id,
        api_key_ciphertext: encryptSecret(key, secretsKey),
      },
    });
    return { ...created, tenant: { id: tenant.id, name: tenant.name, org_id: tenant.org_id } };
  });
  return { secret, row: row satisfies ConsoleSessionRow };
}
