// The admin API's side of the route builder (@risk/common defineRoute, docs/architecture.md "Routes"): its
// auth modes (the admin token, a tenant token, public routes) and its host (the body limit).
import { requireSecret } from '@risk/common/config';
import { ApiError } from '@risk/common/errors';
import { type AuthMode, type RequestGuard, type RouteHost } from '@risk/common/http';
import { prismaQueryable } from '@risk/db';
import { bearerOf, isAdminToken } from '../auth';
import type { AdminDeps } from '../domain/deps';
import { checkTenantToken } from '../domain/tenant-tokens/check-tenant-token';
import { checkFeedToken } from '../domain/feeds/check-feed-token';

/** What the admin routes see: the use cases' deps, the rate-limit guard and the Redis probe of /health. */
export interface AdminContext extends AdminDeps {
  guard: RequestGuard;
  /** resolves when Redis answers PING */
  pingRedis: () => Promise<unknown>;
}

/** The principal of a tenant-token route. */
export interface TenantPrincipal {
  tenantId: string;
}

export const BODY_LIMIT = 1024 * 1024;

/**
 * Reads the bearer credential and checks it is the kind the route needs: the admin token manages tenants,
 * a tenant token (signature, then its row and the tenant's status) everything of one tenant.
 */
async function authenticate(ctx: AdminContext, header: string | undefined, need: 'admin' | 'tenant'): Promise<string> {
  const token = bearerOf(header);
  if (!token) throw new ApiError('token_missing', { message: 'Send Authorization: Bearer <token>.' });
  if (isAdminToken(token, ctx.config.ADMIN_API_TOKEN)) {
    if (need === 'admin') return '';
    throw new ApiError('tenant_token_required', {
      message: 'This route needs a tenant token (the admin token manages tenants only).',
    });
  }
  const claims = await ctx.signer.verify(token);
  if (need === 'admin') throw new ApiError('admin_token_required', { message: 'This route needs the admin token.' });
  await checkTenantToken(ctx, { claims });
  return claims.tenantId;
}

/**
 * Per-IP failed-auth block, then the credential, then the tenant's (or the admin token's) limit, and only
 * then the body (docs/security.md "Rate limits and caps").
 */
const credentialed = <A>(need: 'admin' | 'tenant', principal: (tenantId: string) => A): AuthMode<AdminContext, A> => ({
  label: need,
  security: [{ [need === 'admin' ? 'adminToken' : 'tenantToken']: [] }],
  // every credentialed route answers 401 (missing or bad token) and 403 (the other kind of token)
  errors: [401, 403],
  async run({ deps, req, res }, next) {
    const tenantId = await deps.guard.authenticate(req, () => authenticate(deps, req.headers.authorization, need));
    await deps.guard.limit(res, { policy: 'admin', caller: tenantId || 'admin-token' });
    return next(principal(tenantId));
  },
});

export const adminToken = credentialed('admin', () => undefined);
export const tenantToken: AuthMode<AdminContext, TenantPrincipal> = {
  ...credentialed<TenantPrincipal>('tenant', (tenantId) => ({ tenantId })),
  // a tenant's Idempotency-Keys live in idempotency_keys beside the public API's, under an owner no org id can
  // take (org ids are the tenants' own `org_…`; docs/admin-api.md "Idempotency")
  idempotencyOwner: (auth) => ({ org_id: `tenant:${auth.tenantId}`, livemode: true }),
};

/**
 * No credential in the Authorization header. The route runs inside the per-IP failed-auth block: a handler
 * that checks a credential of its own (a deployment token) counts its 401s against the client address, and
 * a blocked address is refused before such a handler runs (it has effects: an exchange mints a key).
 */
export const noCredential: AuthMode<AdminContext, undefined> = {
  label: 'none',
  security: [],
  errors: [429], // a blocked address is refused (docs/security.md "Rate limits and caps")
  run: ({ deps, req }, next) => deps.guard.authenticate(req, () => next(undefined)),
};

/**
 * The feed credential (docs/feeds.md "Feed tokens"): HTTP Basic or a bearer secret, read-only, feeds only. A
 * 401 carries `WWW-Authenticate: Basic` so a client that sends credentials only when challenged sends them.
 */
export const feedToken: AuthMode<AdminContext, TenantPrincipal> = {
  label: 'feed',
  security: [{ feedBasic: [] }, { feedBearer: [] }],
  errors: [401, 403],
  async run({ deps, req, res }, next) {
    let tenantId: string;
    try {
      tenantId = await deps.guard.authenticate(req, () => checkFeedToken(deps, { header: req.headers.authorization }));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401)
        res.setHeader('WWW-Authenticate', 'Basic realm="risk-feeds", charset="UTF-8"');
      throw err;
    }
    await deps.guard.limit(res, { policy: 'admin', caller: `feed:${tenantId}` });
    return next({ tenantId });
  },
};

/** No credential and no failed-auth block: the health probe answers whoever asks. */
export const probe: AuthMode<AdminContext, undefined> = {
  label: 'none',
  security: [],
  errors: [],
  run: (_input, next) => next(undefined),
};


export const routeHost = (deps: AdminContext): RouteHost<AdminContext> => ({
  deps,
  bodyLimit: () => BODY_LIMIT,
  // POST /keys/v1 (docs/admin-api.md "Idempotency"); its stored answer holds the key, so it is kept encrypted
  idempotency: {
    db: prismaQueryable(deps.prisma), // the admin API holds no pg Pool
    leaseMs: deps.config.IDEMPOTENCY_LEASE_MS,
    logger: deps.logger,
    encryptedStorage: () => ({ secretsKey: requireSecret(deps.config, 'SECRETS_KEY') }),
  },
});
