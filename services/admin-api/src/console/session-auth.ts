// The console's credential (docs/console.md "Sign-in and access"): the session cookie, and on every
// state-changing method the CSRF token in X-Console-CSRF plus a same-origin Origin / Sec-Fetch-Site. Used by the
// session routes (routes/console.ts) and the two proxies (console/proxy.ts).
import { ApiError } from '@risk/common/errors';
import { type AuthMode } from '@risk/common/http';
import type { Request } from 'express';
import type { AdminContext } from '../http/route';
import { resolveConsoleSession, type ResolvedConsoleSession } from '../domain/console-sessions/resolve-session';
import { CSRF_HEADER, csrfMatches, readSessionCookie } from '../domain/console-sessions/session-secrets';

export interface ConsolePrincipal extends ResolvedConsoleSession {
  /** the cookie's secret (derives the CSRF token) */
  secret: string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A request that changes something must come from the console's own pages: a browser sends Origin on such
 * requests (and Sec-Fetch-Site), and a cross-site page cannot read the CSRF token nor set the custom header
 * without a CORS preflight, which admin-api never grants.
 */
export function checkSameOrigin(req: Request): void {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `${req.protocol}://${req.headers.host ?? ''}`)
    throw new ApiError('csrf_check_failed', { message: 'Cross-origin request refused.' });
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    throw new ApiError('csrf_check_failed', { message: 'Cross-site request refused.' });
}

export async function authenticateConsole(ctx: AdminContext, req: Request): Promise<ConsolePrincipal> {
  const secret = readSessionCookie(req.headers.cookie, req.secure);
  if (!secret) throw new ApiError('session_missing', { message: 'Not signed in to the console.' });
  const session = await resolveConsoleSession(ctx, { secret });
  if (!SAFE_METHODS.has(req.method)) {
    checkSameOrigin(req);
    const header = req.headers[CSRF_HEADER];
    if (
      !csrfMatches({
        secret,
        header: typeof header === 'string' ? header : undefined,
        secretsKey: ctx.config.SECRETS_KEY ?? '',
      })
    )
      throw new ApiError('csrf_check_failed', {
        message: 'Missing or wrong X-Console-CSRF header (take it from the session).',
      });
  }
  return { ...session, secret };
}

/** Failed-auth block per address, the session (and CSRF), then the tenant's (or the admin's) rate limit. */
export const consoleSession: AuthMode<AdminContext, ConsolePrincipal> = {
  label: 'console',
  security: [{ consoleSession: [] }],
  errors: [401, 403],
  async run({ deps, req, res }, next) {
    const principal = await deps.guard.authenticate(req, () => authenticateConsole(deps, req));
    await deps.guard.limit(res, { policy: 'admin', caller: principal.tenant?.id ?? 'admin-token' });
    return next(principal);
  },
};
