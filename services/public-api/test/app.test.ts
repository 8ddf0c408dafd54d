import { ApiKeyAuthenticator } from '@risk/common/http';
import { QueueProducer } from '@risk/common/queue';
import request from 'supertest';
import { createHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('app');
});
afterAll(() => h.close());

test('GET / describes the service; every response has an X-Request-Id and helmet headers', async () => {
  const res = await request(h.app).get('/');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ service: 'Risk Intelligence API', status: 'running', version: '1.0.0' });
  expect(res.headers['x-request-id']).toMatch(/^req_/);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-powered-by']).toBeUndefined();
});

// docs/security.md "HTTPS": HSTS only when the request went over HTTPS; X-Forwarded-Proto is ignored
// here because TRUST_PROXY is off (the HTTPS tests: packages/common/src/http/tls.test.ts, start-tls.test.ts)
test('no Strict-Transport-Security over plain HTTP, even with a forged X-Forwarded-Proto', async () => {
  const res = await request(h.app).get('/healthz').set('X-Forwarded-Proto', 'https');
  expect(res.status).toBe(200);
  expect(res.headers['strict-transport-security']).toBeUndefined();
});

test('/healthz is 200 and /readyz checks Postgres and Redis', async () => {
  expect((await request(h.app).get('/healthz')).status).toBe(200);
  const ready = await request(h.app).get('/readyz');
  expect(ready.status).toBe(200);
  expect(ready.body).toMatchObject({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
});

test('/readyz is 503 naming Redis when Redis is unreachable, and 503 once shutdown begins', async () => {
  const producer = new QueueProducer({ url: 'redis://127.0.0.1:1', prefix: 'x' }, 'down');
  const authenticator = new ApiKeyAuthenticator(h.ctx.db.prisma);
  const app = h.appWith({ producer, authenticator });
  try {
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'unavailable', checks: { postgres: 'ok', redis: 'unavailable' } });
  } finally {
    await authenticator.close();
    await producer.close();
  }
  h.app.locals.state.shuttingDown = true;
  const draining = await request(h.app).get('/readyz');
  h.app.locals.state.shuttingDown = false;
  expect(draining.status).toBe(503);
  expect(draining.body.shutting_down).toBe(true);
});

test('an unknown route is 404 route_not_found in the envelope with the request id', async () => {
  for (const path of ['/v1/nothing-here', '/v1/assets-x', '/v1/events/a/b', '/v1', '/v1/', '/v1?x=1']) {
    const res = await request(h.app).get(path);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({
      type: 'not_found_error',
      code: 'route_not_found',
      request_id: res.headers['x-request-id'],
    });
  }
});

test('/v1 routes are found whatever the case of their path (as express matches) and with a query string', async () => {
  const auth = { Authorization: `Bearer ${h.key}` };
  for (const path of ['/V1/ASSETS', '/v1/Assets?limit=1', '/v1/assets/?limit=1', '/v1/EVENTS']) {
    const res = await request(h.app).get(path).set(auth);
    expect([path, res.status]).toEqual([path, 200]);
    expect(res.body.object).toBe('list');
  }
  expect((await request(h.app).get('/V1/OPENAPI.JSON')).body.openapi).toBe('3.1.0');
});

test('GET /v1/openapi.json is an OpenAPI 3.1 document with every signals and assets route, the bearer scheme and the error envelope', async () => {
  const res = await request(h.app).get('/v1/openapi.json');
  expect(res.status).toBe(200);
  expect(res.body.openapi).toBe('3.1.0');
  const paths = Object.keys(res.body.paths);
  for (const p of [
    '/v1/signals',
    '/v1/signals/bulk',
    '/v1/signals/{signal_id}',
    '/v1/assets',
    '/v1/assets/lookup',
    '/v1/assets/{fingerprint}',
    '/v1/assets/{fingerprint}/findings',
    '/v1/assets/{fingerprint}/aibom',
    '/v1/assets/{fingerprint}/threats',
  ]) {
    expect(paths).toContain(p);
  }
  expect(res.body.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  expect(res.body.components.schemas.ErrorEnvelope).toBeDefined();
  expect(res.body.components.schemas.Signal).toBeDefined();
  expect(res.body.components.schemas.Asset).toBeDefined();
  const post = res.body.paths['/v1/signals'].post;
  expect(post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/CreateSignalBody');
  expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['202', '400', '401', '500']));
  expect(post.responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorEnvelope');
  expect(res.body.paths['/v1/assets/{fingerprint}/aibom'].get.responses['200'].content).toHaveProperty(['text/plain']);
});

test('docs/errors.md documents every error code', async () => {
  const { readFileSync } = await import('node:fs');
  const { ERROR_CODES } = await import('@risk/common/errors');
  const doc = readFileSync(require.resolve('../../../docs/errors.md'), 'utf8');
  const missing = Object.keys(ERROR_CODES).filter((code) => !doc.includes(code));
  expect(missing).toEqual([]);
});
