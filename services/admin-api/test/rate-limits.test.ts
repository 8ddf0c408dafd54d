import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import request from 'supertest';
import { closeServer, listenWithLimits } from '@risk/common/server';
import { createAdminHarness, expectError, type AdminHarness } from './harness';

// Admin API limits (docs/security.md "Rate limits and caps"): a per-tenant requests-per-second limit
// (the operator's admin token counts as one more caller), the per-IP block on failed authentications
// (tenant tokens, the admin token and deployment tokens alike), and no body read before the token.

const field = (value: string | undefined) => {
  const m = /^"admin";r=(\d+);t=(\d+)$/.exec(value ?? '');
  if (!m) throw new Error(`not a RateLimit field: ${value}`);
  return { r: Number(m[1]), t: Number(m[2]) };
};

describe('per-tenant limit', () => {
  let h: AdminHarness;
  beforeAll(async () => {
    h = await createAdminHarness('adminlimits', { env: { RATE_LIMIT_ADMIN_PER_SECOND: '4' } });
  });
  afterAll(() => h.close());

  test('a tenant bursting gets 429 rate_limited with Retry-After and RateLimit headers; another tenant is unaffected', async () => {
    const a = await h.registerTenant();
    const b = await h.registerTenant();
    let refused: request.Response | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const res = await h.call('get', '/firewalls/v1', { auth: a.auth });
      if (res.status === 429) refused = res;
      else expect(res.status).toBe(200);
    }
    expect(refused).toBeDefined();
    expectError(refused!, 429, 'rate_limited');
    expect(refused!.body.error.type).toBe('rate_limit_error');
    expect(refused!.headers['retry-after']).toBe('1');
    expect(refused!.headers['ratelimit-policy']).toBe('"admin";q=4;w=1');
    expect(field(refused!.headers.ratelimit).r).toBe(0);
    const other = await h.call('get', '/firewalls/v1', { auth: b.auth });
    expect(other.status).toBe(200);
    expect(field(other.headers.ratelimit).r).toBe(3);
  });

  test('the admin token has its own counter, separate from every tenant', async () => {
    const res = await h.call('get', '/tenants/v1', { auth: h.adminAuth });
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-policy']).toBe('"admin";q=4;w=1');
  });

  test('/openapi.json documents 429 with Retry-After and the RateLimit headers on every credentialed route', async () => {
    const doc = (await h.call('get', '/openapi.json')).body as {
      paths: Record<string, Record<string, { security: unknown[]; responses: Record<string, { headers?: object }> }>>;
    };
    let credentialed = 0;
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        if (op.security.length === 0) continue;
        credentialed++;
        expect([method, path, Object.keys(op.responses['429']?.headers ?? {}).sort()]).toEqual([
          method,
          path,
          ['RateLimit', 'RateLimit-Policy', 'Retry-After'],
        ]);
      }
    expect(credentialed).toBeGreaterThan(20);
  });

  test('public routes (/, /health, /openapi.json) carry no limit', async () => {
    for (const path of ['/', '/health', '/openapi.json']) {
      const res = await request(h.app).get(path);
      expect(res.status).toBe(200);
      expect(res.headers.ratelimit).toBeUndefined();
    }
  });
});

describe('per-IP limit on failed authentications', () => {
  let h: AdminHarness;
  beforeAll(async () => {
    h = await createAdminHarness('adminfailedauth', { env: { RATE_LIMIT_FAILED_AUTH_PER_IP: '3' } });
  });
  afterAll(() => h.close());

  test('bad tenant tokens, a wrong admin token and bad deployment tokens all count; then even a valid token gets 429', async () => {
    const tenant = await h.registerTenant();
    expectError(await h.call('get', '/firewalls/v1', { auth: 'Bearer not-a-jwt' }), 401, 'token_invalid');
    expectError(
      await h.call('get', '/tenants/v1', { auth: 'Bearer wrong-admin-token-000000000000' }),
      401,
      'token_invalid',
    );
    const exchange = await h.call('get', '/deploy/v1/credentials', { query: { token: 'dpl_guess' } });
    expect(exchange.status).toBe(401);
    // the fourth attempt from this address is refused before the credential is even looked at
    const blocked = await h.call('get', '/deploy/v1/credentials', { query: { token: 'dpl_guess2' } });
    expectError(blocked, 429, 'rate_limited');
    expect(blocked.headers['ratelimit-policy']).toBe('"failed_auth";q=3;w=300');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(250);
    expectError(await h.call('get', '/firewalls/v1', { auth: tenant.auth }), 429, 'rate_limited');
  });
});

describe('the token is checked before the body is read', () => {
  let h: AdminHarness;
  let server: Server;
  beforeAll(async () => {
    h = await createAdminHarness('adminauthbody');
    server = await listenWithLimits(h.app, { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await closeServer(server, { deadlineMs: 1000 });
    await h.close();
  });

  test('a bad token announcing a 1 MiB body gets 401 without the body being sent', async () => {
    const { port } = server.address() as AddressInfo;
    const head = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      socket.on('connect', () => {
        socket.write(
          'POST /firewalls/v1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer nope\r\nContent-Type: application/json\r\n' +
            `Content-Length: ${1024 * 1024}\r\n\r\n{"name":"`,
        );
      });
      socket.on('data', (d) => {
        received += d.toString('latin1');
        if (received.includes('\r\n\r\n')) {
          resolve(received);
          socket.destroy();
        }
      });
      socket.on('error', reject);
      setTimeout(() => {
        socket.destroy();
        reject(new Error('no answer within 5 s: the server waited for the body'));
      }, 5000).unref();
    });
    expect(head).toMatch(/^HTTP\/1\.1 401 /);
    expect(head.toLowerCase()).toContain('connection: close');
  });
});
