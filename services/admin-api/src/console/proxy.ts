// The console's two same-origin doors to the APIs (docs/console.md "Sign-in and access"), both behind the
// session cookie and, for state-changing methods, its CSRF token:
// - /console/v1/admin/<admin route> is rewritten in place to the admin route with the session's credential (the
//   admin token for the platform admin, the session's own tenant token for a tenant), so the admin routes run
//   with their own checks, limits and errors, unchanged;
// - /console/v1/public/v1/<public route> is forwarded to the public API with the session's own org API key
//   (tenant sessions only). The browser never sees either credential.
// The public door names the session to the public API (CONSOLE_DOOR_HEADER), so the public API counts a failed
// authentication through it against that session, never against admin-api's address that every tenant's door
// traffic shares; a session whose key the public API refuses ends at once (docs/security.md "The console's public
// door").
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiError } from '@risk/common/errors';
import { CONSOLE_DOOR_HEADER, consoleDoorHeader } from '@risk/common/http';
import type { AdminContext } from '../http/route';
import { authenticateConsole } from './session-auth';
import { BODY_LIMIT } from '../http/route';
import { endConsoleSession } from '../domain/console-sessions/sign-out';
import { clearedCookie } from '../domain/console-sessions/session-secrets';

const ADMIN_PREFIX = '/console/v1/admin';
const PUBLIC_PREFIX = '/console/v1/public';
/** the admin routes a session may reach; the service routes, metrics and the queue board are not proxied */
const ADMIN_ROUTE_PREFIXES = ['/tenants/v1', '/firewalls/v1', '/policies/v1', '/tools/v1', '/feeds/v1', '/keys/v1'];
const FORWARD_REQUEST_HEADERS = ['content-type', 'accept', 'idempotency-key'];
const FORWARD_RESPONSE_HEADERS = [
  'content-type',
  'content-disposition',
  'x-request-id',
  'retry-after',
  'ratelimit',
  'ratelimit-policy',
  'idempotent-replayed',
  'original-request',
];
const PUBLIC_TIMEOUT_MS = 30_000;

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

export function consoleProxy(ctx: AdminContext): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (under(req.path, ADMIN_PREFIX)) return void toAdmin(ctx, req).then(() => next(), next);
    if (under(req.path, PUBLIC_PREFIX)) return void toPublic(ctx, { req, res }).catch(next);
    next();
  };
}

async function session(ctx: AdminContext, req: Request) {
  const principal = await ctx.guard.authenticate(req, () => authenticateConsole(ctx, req));
  return principal;
}

async function toAdmin(ctx: AdminContext, req: Request): Promise<void> {
  const rest = req.url.slice(ADMIN_PREFIX.length);
  const restPath = rest.split('?')[0]!;
  if (!ADMIN_ROUTE_PREFIXES.some((p) => under(restPath, p)))
    throw new ApiError('route_not_found', { message: 'The console proxies the tenant and policy routes only.' });
  const principal = await session(ctx, req);
  const credential = principal.kind === 'admin' ? (ctx.config.ADMIN_API_TOKEN ?? '') : principal.tenantToken();
  req.headers.authorization = `Bearer ${credential}`;
  delete req.headers.cookie;
  req.url = rest; // the admin route itself runs next, with its own authentication, limit and validation
}

async function toPublic(ctx: AdminContext, io: { req: Request; res: Response }): Promise<void> {
  const { req, res } = io;
  const target = publicTarget(req.url.slice(PUBLIC_PREFIX.length), ctx.config.PUBLIC_API_BASE_URL);
  const principal = await session(ctx, req);
  if (principal.kind !== 'tenant')
    throw new ApiError('tenant_session_required', {
      message: "The platform admin has no org: public-API data needs a tenant's session.",
    });
  const headers: Record<string, string> = {
    authorization: `Bearer ${principal.apiKey()}`,
    [CONSOLE_DOOR_HEADER]: consoleDoorHeader(principal.id, ctx.config.SECRETS_KEY ?? ''),
  };
  for (const name of FORWARD_REQUEST_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(await readRaw(req));
  const upstream = await fetch(target, {
    method: req.method,
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(PUBLIC_TIMEOUT_MS),
  }).catch(() => {
    throw new ApiError('service_unavailable', { message: 'The public API did not answer.' });
  });
  if (upstream.status === 401) {
    // the session's own key was refused (revoked through /keys/v1, or expired): retrying it can only fail again, so
    // the session ends and its credentials with it
    await upstream.arrayBuffer().catch(() => undefined);
    await endConsoleSession(ctx, { sessionId: principal.id });
    res.setHeader('Set-Cookie', clearedCookie(req.secure));
    throw new ApiError('session_revoked', {
      message: "The public API refused this session's key; the session has ended. Sign in again.",
    });
  }
  res.status(upstream.status);
  for (const name of FORWARD_RESPONSE_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) res.setHeader(name, value);
  }
  res.setHeader('Cache-Control', 'no-store');
  res.send(Buffer.from(await upstream.arrayBuffer()));
}

/**
 * Where a public-door request goes: the path as the browser sent it must start with /v1/ and hold no dot segment
 * (`.`, `..`, raw or percent-encoded, as URL resolution reads them) nor a backslash (which it reads as a slash), and
 * the resolved URL must still be the public API's /v1/ (the door forwards the session's key only there).
 */
function publicTarget(rest: string, base: string): URL {
  const refuse = () =>
    new ApiError('route_not_found', { message: 'Public API routes start with /v1/ and hold no dot segments.' });
  const query = rest.indexOf('?');
  const rawPath = query === -1 ? rest : rest.slice(0, query);
  if (!rawPath.startsWith('/v1/') || rawPath.includes('\\')) throw refuse();
  for (const segment of rawPath.split('/')) {
    const dots = segment.replace(/%2e/gi, '.');
    if (dots === '.' || dots === '..') throw refuse();
  }
  const url = new URL(rest, base);
  if (url.origin !== new URL(base).origin || !url.pathname.startsWith('/v1/')) throw refuse();
  return url;
}

/** The request body, at most the admin API's body limit (413 beyond). */
async function readRaw(req: Request): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) throw new ApiError('request_too_large', { message: 'The request body is too large.' });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
