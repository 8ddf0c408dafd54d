// POST /console/v1/session (docs/console.md "Sign-in and access"): the admin token or a tenant token, checked
// exactly as the admin routes check it, is exchanged for a session. A tenant session gets two credentials of its
// own, minted here and revoked at sign-out: a tenant token (the admin routes) and an org API key with the
// console's scopes (the public-API proxy), both expiring with the session and kept encrypted. Each sign-in counts
// against the signer's admin rate limit, and a tenant holds at most MAX_OPEN_CONSOLE_SESSIONS_PER_TENANT open
// sessions: the oldest ends when another opens (docs/security.md "Console sign-in and session credentials").
import { buildApiKey } from '@risk/common/api-keys';
import { encryptSecret } from '@risk/common/crypto';
import { ApiError } from '@risk/common/errors';
import { ID_PREFIXES, newId } from '@risk/db';
import { endConsoleSessions, lockTenant } from '@risk/db';
import { isAdminToken } from '../../auth';
import type { AdminDeps } from '../deps';
import { checkTenantToken } from '../tenant-tokens/check-tenant-token';
import { issueTenantToken } from '../tenant-tokens/issue-tenant-token';
import {
  adminTokenBinding,
  CONSOLE_ABSOLUTE_MS,
  CONSOLE_KEY_SCOPES,
  newSessionSecret,
  sessionSecretHash,
} from './session-secrets';
import type { ConsoleSessionRow } from './serialize-session';

type SignInDeps = Pick<AdminDeps, 'prisma' | 'config' | 'signer'>;

/**
 * Open console sessions a tenant may hold (each holds a tenant token and an API key of its own, outside the org's
 * key cap): a sign-in beyond it ends the tenant's oldest session, so a signer is never locked out and the
 * credentials sessions mint stay bounded.
 */
export const MAX_OPEN_CONSOLE_SESSIONS_PER_TENANT = 10;

export async function signInToConsole(
  deps: SignInDeps,
  input: {
    token: string;
    /** counts the sign-in against the signer's rate limit (`caller`: the tenant id, or 'admin-token') */
    countSignIn: (caller: string) => Promise<void>;
  },
) {
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
  const secretsKey = deps.config.SECRETS_KEY ?? '';
  if (isAdminToken(token, deps.config.ADMIN_API_TOKEN)) {
    await input.countSignIn('admin-token');
    const row = await deps.prisma.consoleSession.create({
      data: { ...base, kind: 'admin', admin_token_hmac: adminTokenBinding(token, secretsKey) },
    });
    return { secret, row: { ...row, tenant: null } satisfies ConsoleSessionRow };
  }
  const claims = await deps.signer.verify(token).catch((err: unknown) => {
    if (err instanceof ApiError && err.code === 'token_expired') throw err;
    throw new ApiError('token_invalid', { param: 'token', message: 'Not the admin token nor a valid tenant token.' });
  });
  await checkTenantToken(deps, { claims, now });
  await input.countSignIn(claims.tenantId);
  const row = await deps.prisma.$transaction(async (tx) => {
    // the tenant row's lock serialises this tenant's sign-ins, so concurrent ones cannot all slip under the cap
    await lockTenant(tx, claims.tenantId);
    const tenant = await tx.tenant.findUniqueOrThrow({ where: { id: claims.tenantId } });
    const open = await tx.consoleSession.findMany({
      where: { tenant_id: tenant.id, revoked_at: null },
      orderBy: [{ created: 'desc' }, { id: 'desc' }],
      skip: MAX_OPEN_CONSOLE_SESSIONS_PER_TENANT - 1,
      select: { id: true },
    });
    await endConsoleSessions(tx, { select: { ids: open.map((s) => s.id) }, now });
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
