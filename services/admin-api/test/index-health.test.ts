// GET /, /health (up and with Redis unreachable), /openapi.json, unknown routes and malformed bodies.
import IORedis from 'ioredis';
import request from 'supertest';
import { createApp } from '../src/app';
import { adminRouteTable } from '../src/routes';
import { createAdminHarness, expectError, type AdminHarness } from './harness';

// the route table the app serves (method, documented path, credential, summary)
const ADMIN_ROUTE_TABLE = adminRouteTable();

let h: AdminHarness;
beforeAll(async () => {
  h = await createAdminHarness('adminindex');
});
afterAll(() => h.close());

describe('GET /', () => {
  // docs/security.md "HTTPS": HSTS only over HTTPS; X-Forwarded-Proto ignored with TRUST_PROXY off
  it('sends no Strict-Transport-Security over plain HTTP, even with a forged X-Forwarded-Proto', async () => {
    const res = await request(h.app).get('/').set('X-Forwarded-Proto', 'https');
    expect(res.status).toBe(200);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('answers the spec index with an endpoints map of every admin route and an X-Request-Id', async () => {
    const res = await h.call('get', '/');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toMatch(/^req_/);
    expect(res.body).toMatchObject({ service: 'Admin API', status: 'running', version: '1.0.0' });
    const keys = Object.keys(res.body.endpoints);
    expect(keys).toHaveLength(ADMIN_ROUTE_TABLE.length);
    for (const path of [
      'GET /health',
      'GET /deploy/v1/credentials',
      'POST /tenants/v1/register',
      'POST /tenants/v1/{id}/tokens',
      'DELETE /tenants/v1/{id}/deployment-token/{token_id}',
      'POST /firewalls/v1/{id}/configure-vendor-logging',
      'POST /policies/v1/url-filter/{id}/rules/reorder',
      'DELETE /policies/v1/url-filter/{id}/assign/{fwId}',
      'GET /tools/v1/risk-score',
    ]) {
      expect(keys).toContain(path);
    }
    expect(res.body.endpoints['POST /firewalls/v1']).toEqual({ auth: 'tenant', summary: expect.any(String) });
    expect(res.body.endpoints['GET /tenants/v1']).toEqual({ auth: 'admin', summary: expect.any(String) });
  });
});

describe('GET /health', () => {
  it('is 200 with Postgres and Redis up', async () => {
    const res = await h.call('get', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      service: 'Admin API',
      checks: { postgres: { status: 'up' }, redis: { status: 'up' } },
    });
    expect(res.body.checks.redis.latency_ms).toEqual(expect.any(Number));
  });

  it('is 503 naming Redis when Redis is unreachable', async () => {
    // main.ts's client options (no offline queue: a command fails at once while Redis is away), pointed at a
    // port nothing listens on; not connected, because a refused connect leaves ioredis timers running
    const down = new IORedis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: () => null,
    });
    down.on('error', () => undefined);
    const app = createApp({
      config: h.ctx.config,
      prisma: h.ctx.db.prisma,
      logger: h.ctx.logger,
      pingRedis: () => down.ping(),
      redis: down,
    });
    try {
      const res = await request(app).get('/health');
      expect(res.status).toBe(503);
      // fails fast, not by the 2 s check timeout: the error is the refused command itself, never the timeout's
      // (a wall-clock bound here failed at 2.7 s on a loaded machine while the answer was the fast one)
      expect(res.body.checks.redis.error).not.toMatch(/timed out/);
      expect(res.body.status).toBe('degraded');
      expect(res.body.checks.postgres.status).toBe('up');
      expect(res.body.checks.redis).toEqual({
        status: 'down',
        error: expect.stringMatching(/writeable|closed|ECONNREFUSED/),
      });
    } finally {
      const ended = down.status === 'end' ? Promise.resolve() : new Promise((resolve) => down.once('end', resolve));
      down.disconnect();
      await ended;
    }
  });

  it('is 503 naming Postgres when the database query fails', async () => {
    const app = createApp({
      config: h.ctx.config,
      prisma: { $queryRaw: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5')) } as never,
      logger: h.ctx.logger,
      pingRedis: () => h.redis.ping(),
      redis: h.redis,
    });
    const res = await request(app).get('/health');
    expect(res.status).toBe(503);
    expect(res.body.checks).toMatchObject({
      postgres: { status: 'down', error: expect.stringContaining('ECONNREFUSED') },
      redis: { status: 'up' },
    });
  });
});

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document with both bearer schemes and every admin route', async () => {
    const res = await h.call('get', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.components.securitySchemes).toMatchObject({
      adminToken: { type: 'http', scheme: 'bearer' },
      tenantToken: { type: 'http', scheme: 'bearer' },
      consoleSession: { type: 'apiKey', in: 'cookie' },
    });
    for (const route of ADMIN_ROUTE_TABLE) {
      const op = res.body.paths[route.path]?.[route.method];
      expect([route.method, route.path, op ? 'documented' : 'missing']).toEqual([
        route.method,
        route.path,
        'documented',
      ]);
      if (route.auth !== 'none') {
        // feed lists take a feed token as HTTP Basic (what firewalls send) or Bearer (docs/feeds.md)
        const security =
          route.auth === 'feed'
            ? [{ feedBasic: [] }, { feedBearer: [] }]
            : [{ [{ admin: 'adminToken', console: 'consoleSession' }[route.auth] ?? 'tenantToken']: [] }];
        expect(op.security).toEqual(security);
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403']));
      }
    }
  });
});

describe('errors outside the routes', () => {
  it('answers an unknown route with 404 route_not_found in the envelope', async () => {
    expectError(await h.call('get', '/nope/v1'), 404, 'route_not_found');
  });

  it('answers malformed JSON with 400 invalid_json and a form body with 415', async () => {
    const bad = await request(h.app)
      .post('/tenants/v1/register')
      .set('Authorization', h.adminAuth)
      .set('Content-Type', 'application/json')
      .send('{"name":');
    expectError(bad, 400, 'invalid_json');
    const form = await request(h.app)
      .post('/tenants/v1/register')
      .set('Authorization', h.adminAuth)
      .type('form')
      .send('name=x');
    expectError(form, 415, 'unsupported_media_type');
  });
});
