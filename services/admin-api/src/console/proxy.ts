// The console's two same-origin doors to the APIs (docs/console.md "Sign-in and access"), both behind the
// session cookie and, for state-changing methods, its CSRF token:
// - /console/v1/admin/<admin route> is rewritten in place to the admin route with the session's credential (the
//   admin token for the platform admin, the session's own tenant token for a tenant), so the admin routes run
//   with their own checks, limits and errors, unchanged;
// - /console/v1/public/v1/<public route> is forwarded to the public API with the session's own org API key
//   (tenant sessions only). The browser never sees either credential.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiError } from '@risk/common';
import type { AdminContext } from '../http/route';
import { authenticateConsole } from './session-auth';
import { BODY_LIMIT } from '../http/route';

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
  const rest = req.url.slice(PUBLIC_PREFIX.length);
  if (!rest.startsWith('/v1/'))
    throw new ApiError('route_not_found', { message: 'Public API routes start with /v1/.' });
  const principal = await session(ctx, req);
  if (principal.kind !== 'tenant')
    throw new ApiError('tenant_session_required', {
      message: "The platform admin has no org: public-API data needs a tenant's session.",
    });
  const headers: Record<string, string> = { authorization: `Bearer ${principal.apiKey()}` };
  for (const name of FORWARD_REQUEST_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(await readRaw(req));
  const upstream = await fetch(new URL(rest, ctx.config.PUBLIC_API_BASE_URL), {
    method: req.method,
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(PUBLIC_TIMEOUT_MS),
  }).catch(() => {
    throw new ApiError('service_unavailable', { message: 'The public API did not answer.' });
  });
  res.status(upstream.status);
  for (const name of FORWARD_RESPONSE_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) res.setHeader(name, value);
  }
  res.setHeader('Cache-Control', 'no-store');
  res.send(Buffer.from(await upstream.arrayBuffer()));
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
