// One scratch database + Redis prefix per suite (createTestContext), the real admin app on it, and helpers
// that record every response so a suite can prove at the end that no firewall api_token leaked into a
// response or a log line.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import request from 'supertest';
import IORedis from 'ioredis';
import { allowedHostsFor, parseAllowList } from '@risk/common/outbound';
import { createTestContext, type TestContext } from '@risk/testing';
import { createApp, type AppDeps } from '../src/app';
import { createConnector, type FirewallConnection } from '@risk/firewalls';

export type Method = 'get' | 'post' | 'put' | 'delete';

export interface CallOptions {
  auth?: string | null;
  body?: unknown;
  query?: Record<string, string | string[]>;
  /** extra request headers (If-None-Match) */
  headers?: Record<string, string>;
}

export interface Tenant {
  id: string;
  org_id: string;
  name: string;
  token: string;
  auth: string;
}

export interface AdminHarness {
  ctx: TestContext;
  app: ReturnType<typeof createApp>;
  redis: IORedis;
  adminAuth: string;
  connectorFor: (c: FirewallConnection) => ReturnType<typeof createConnector>;
  /** every response (status line, headers, raw body) the suite received through call() */
  responses: string[];
  /** firewall api_tokens handed to the service; none may ever come back or be logged */
  secrets: Set<string>;
  call(method: Method, path: string, opts?: CallOptions): Promise<request.Response>;
  registerTenant(name?: string): Promise<Tenant>;
  /** a fresh api_token recorded as a secret */
  newApiToken(): string;
  createFirewall(auth: string, body: Record<string, unknown>): Promise<request.Response>;
  createPolicy(auth: string, body: Record<string, unknown>): Promise<request.Response>;
  assertNoSecretLeaks(): void;
  close(): Promise<void>;
}

let seq = 0;
export const unique = (prefix: string) => `${prefix}-${++seq}-${randomBytes(3).toString('hex')}`;

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function createAdminHarness(
  label: string,
  opts: { env?: Record<string, string>; deps?: Partial<AppDeps> } = {},
): Promise<AdminHarness> {
  const ctx = await createTestContext(label, opts.env);
  const redis = new IORedis(ctx.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const allowList = parseAllowList(allowedHostsFor(ctx.config, 'firewall'));
  const connectorFor = (c: FirewallConnection) => createConnector(c, { timeoutMs: 3000, allowList, pollIntervalMs: 5 });
  const app = createApp({
    config: ctx.config,
    prisma: ctx.db.prisma,
    logger: ctx.logger,
    pingRedis: () => redis.ping(),
    redis,
    connectorFor,
    ...opts.deps,
  });
  const adminAuth = `Bearer ${ctx.config.ADMIN_API_TOKEN}`;
  const responses: string[] = [];
  const secrets = new Set<string>();

  const call: AdminHarness['call'] = async (method, path, o = {}) => {
    let req = request(app)[method](path);
    if (o.auth) req = req.set('Authorization', o.auth);
    if (o.query) req = req.query(o.query);
    for (const [name, value] of Object.entries(o.headers ?? {})) req = req.set(name, value);
    const res = o.body !== undefined ? await req.send(o.body as object) : await req;
    responses.push(`${res.status} ${JSON.stringify(res.headers)}\n${res.text}`);
    return res;
  };

  const h: AdminHarness = {
    ctx,
    app,
    redis,
    adminAuth,
    connectorFor,
    responses,
    secrets,
    call,
    async registerTenant(name = unique('tenant')) {
      const res = await call('post', '/tenants/v1/register', {
        auth: adminAuth,
        body: { name, admin_email: `secops@${name}.example` },
      });
      if (res.status !== 201) throw new Error(`register ${name}: ${res.status} ${res.text}`);
      return {
        id: res.body.id,
        org_id: res.body.org_id,
        name,
        token: res.body.tenant_token.token,
        auth: `Bearer ${res.body.tenant_token.token}`,
      };
    },
    newApiToken() {
      const token = `fw-secret-${randomBytes(12).toString('hex')}`;
      secrets.add(token);
      return token;
    },
    async createFirewall(auth, body) {
      if (typeof body.api_token === 'string' && body.api_token.length >= 8) secrets.add(body.api_token);
      return call('post', '/firewalls/v1', { auth, body });
    },
    async createPolicy(auth, body) {
      return call('post', '/policies/v1/url-filter', { auth, body });
    },
    assertNoSecretLeaks() {
      expect(secrets.size).toBeGreaterThan(0);
      expect(responses.length).toBeGreaterThan(0);
      // the access log writes one line per request, so the captured log is never empty here
      expect(ctx.logLines.length).toBeGreaterThan(0);
      for (const secret of secrets) {
        // the offending responses / log lines themselves, so a failure shows where the secret leaked
        expect(responses.filter((r) => r.includes(secret))).toEqual([]);
        expect(ctx.logLines.filter((l) => l.includes(secret))).toEqual([]);
      }
    },
    async close() {
      redis.disconnect();
      await ctx.close();
    },
  };
  return h;
}

/** A harness and one registered tenant: the set-up most suites start from. */
export async function harnessWithTenant(
  label: string,
  opts: Parameters<typeof createAdminHarness>[1] = {},
): Promise<{ h: AdminHarness; tenant: Tenant }> {
  const h = await createAdminHarness(label, opts);
  return { h, tenant: await h.registerTenant() };
}

/** The envelope of an error response, checked for the spec's shape and the X-Request-Id echo. */
export function expectError(res: request.Response, status: number, code: string, param?: string) {
  expect({ status: res.status, code: res.body?.error?.code, param: res.body?.error?.param }).toEqual({
    status,
    code,
    param,
  });
  expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
  expect(typeof res.body.error.message).toBe('string');
  return res.body.error as { type: string; code: string; param?: string; message: string };
}
