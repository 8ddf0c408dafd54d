import type { ApiKeyPrincipal, AuthMode, RequestGuard, RouteHost } from '@risk/common/http';
import type { Scope } from '@risk/contracts';
import { requireSecret } from '@risk/common/config';
import { requireScope } from '@risk/common/http';
import type { AppDeps } from '../deps';

/**
 * The public API's side of the route builder (@risk/common defineRoute, docs/architecture.md "Routes"):
 * its auth modes (an API key with a scope, any API key, public) and its host (body limits, the
 * idempotency store). Order of checks (docs/errors.md "Order of checks"): per-IP failed-auth block and
 * auth → the key's rate limit → scope → key present and a UUID → body read and parsed → validation →
 * idempotency claim → handler. Nothing reads the body before the key is known and within its limit
 * (docs/security.md "Rate limits and caps").
 */

/** Body limits: 500 signals with manifests need more room than any other request. */
export const BULK_BODY_LIMIT = 10 * 1024 * 1024;
export const BODY_LIMIT = 2 * 1024 * 1024;

const API_KEY_SECURITY = [{ apiKey: [] }];

/** The guard createApp put in the routes' deps. */
function routeGuard(deps: AppDeps): RequestGuard {
  if (!deps.guard) throw new Error('the /v1 routes need deps.guard (createApp builds it)');
  return deps.guard;
}

/**
 * Authenticates the request (behind the per-IP failed-auth block) and counts it against its key's
 * limit (`live` or `test`; the bulk route weighs more). Sets `res.locals.auth`.
 */
const authenticated = (scope: Scope | null): AuthMode<AppDeps, ApiKeyPrincipal> => ({
  label: scope ?? 'api_key',
  security: API_KEY_SECURITY,
  errors: scope ? [400, 401, 403, 500] : [400, 401, 500],
  async run({ deps, req, res, route }, next) {
    const guard = routeGuard(deps);
    const authenticator = deps.authenticator;
    if (!authenticator) throw new Error('the /v1 routes need deps.authenticator (createApp builds it)');
    const auth = await guard.authenticate(req, () => authenticator.authenticate(req.headers.authorization));
    res.locals.auth = auth;
    await guard.limit(res, {
      policy: auth.livemode ? 'live' : 'test',
      caller: auth.key_id,
      weight: route.bulk ? guard.bulkWeight : 1,
    });
    return next(scope ? requireScope(res, scope) : auth);
  },
});

/** An API key holding `scope`. */
export const apiKey = (scope: Scope) => authenticated(scope);

/** Any valid API key: routes whose data the key's org is the audience of (docs/webhooks.md "Events"). */
export const anyApiKey = authenticated(null);

/** No credential (the OpenAPI document). */
export const publicAccess: AuthMode<AppDeps, undefined> = {
  label: 'none',
  security: [],
  errors: [],
  run: (_input, next) => next(undefined),
};

/** The host of the /v1 routes: body limits and the idempotency store (one middleware per route). */
export function routeHost(deps: AppDeps): RouteHost<AppDeps> {
  return {
    deps,
    bodyLimit: (route) => (route.bulk ? BULK_BODY_LIMIT : BODY_LIMIT),
    idempotency: {
      db: deps.pool,
      leaseMs: deps.config.IDEMPOTENCY_LEASE_MS,
      logger: deps.logger,
      // SECRETS_KEY is read per request: a route that stores encrypted fails without it, before the claim
      encryptedStorage: () => ({ secretsKey: requireSecret(deps.config, 'SECRETS_KEY') }),
    },
  };
}
