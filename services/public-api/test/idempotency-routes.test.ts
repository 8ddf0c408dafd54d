import request from 'supertest';
import { createHarness, idem, signalBody, type Harness } from './harness';

// Idempotency on every POST route (auth-idempotency.test.ts covers the signal routes in depth, with
// the concurrent duplicate): replay, mismatch, livemode scope, 2xx-only storage and 24 h retention.
let h: Harness;
let threatId: string;
let webhookId: string;
const THREAT = { category: 'malicious_model', title: 'idempotent threat', severity: 'low' };
// live-mode keys need https; 127.0.0.1 is on the test OUTBOUND_ALLOWED_HOSTS_WEBHOOK list
const WEBHOOK = { url: 'https://127.0.0.1/hooks', events: ['threat.created'] };

const post = (path: string, key: string, body: object, apiKey = h.key) =>
  request(h.app).post(path).set('Authorization', `Bearer ${apiKey}`).set('Idempotency-Key', key).send(body);

beforeAll(async () => {
  h = await createHarness('idemroutes');
  threatId = (await post('/v1/threats', idem(), THREAT)).body.id;
  webhookId = (await post('/v1/webhooks', idem(), WEBHOOK)).body.id;
  expect(threatId).toMatch(/^thr_/);
  expect(webhookId).toMatch(/^we_/);
});
afterAll(() => h.close());

/** other: another valid body (rotate_secret has none: any other body fails validation, which runs first). */
const ROUTES: Array<{ name: string; path: () => string; body: () => object; other?: () => object }> = [
  {
    name: 'POST /v1/signals',
    path: () => '/v1/signals',
    body: () => signalBody(h.orgId),
    other: () => signalBody(h.orgId),
  },
  {
    name: 'POST /v1/signals/bulk',
    path: () => '/v1/signals/bulk',
    body: () => ({ signals: [signalBody(h.orgId)] }),
    other: () => ({ signals: [signalBody(h.orgId)] }),
  },
  {
    name: 'POST /v1/threats',
    path: () => '/v1/threats',
    body: () => THREAT,
    other: () => ({ ...THREAT, title: 'another' }),
  },
  {
    name: 'POST /v1/threats/{id}',
    path: () => `/v1/threats/${threatId}`,
    body: () => ({ title: `t ${idem()}` }),
    other: () => ({ title: 'other title' }),
  },
  {
    name: 'POST /v1/webhooks',
    path: () => '/v1/webhooks',
    body: () => WEBHOOK,
    other: () => ({ ...WEBHOOK, description: 'x' }),
  },
  {
    name: 'POST /v1/webhooks/{id}',
    path: () => `/v1/webhooks/${webhookId}`,
    body: () => ({ description: `d ${idem()}` }),
    other: () => ({ description: 'other' }),
  },
  {
    name: 'POST /v1/webhooks/{id}/rotate_secret',
    path: () => `/v1/webhooks/${webhookId}/rotate_secret`,
    body: () => ({}),
  },
];

describe.each(ROUTES.map((r) => [r.name, r] as const))('%s', (_name, route) => {
  test('the same key and body replay the first response, marked, with the first request id', async () => {
    const key = idem();
    const body = route.body();
    const first = await post(route.path(), key, body);
    expect(first.status).toBeGreaterThanOrEqual(200);
    expect(first.status).toBeLessThan(300);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post(route.path(), key, body);
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['original-request']).toBe(first.headers['x-request-id']);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  const other = route.other;
  if (!other) return;
  test('the same key with another body is 400 idempotency_replay_mismatch', async () => {
    const key = idem();
    expect((await post(route.path(), key, route.body())).status).toBeLessThan(300);
    const res = await post(route.path(), key, other());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_replay_mismatch' });
    expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
  });
});

test('keys are scoped by livemode: the same key and body from a test-mode key of the org is a new request', async () => {
  const key = idem();
  const live = await post('/v1/threats', key, THREAT);
  expect(live.status).toBe(201);
  const testMode = await post('/v1/threats', key, THREAT, await h.mintKey({ livemode: false }));
  expect(testMode.status).toBe(201);
  expect(testMode.headers['idempotent-replayed']).toBeUndefined();
  expect(testMode.body.id).not.toBe(live.body.id);
  expect(testMode.body.livemode).toBe(false);
});

test('only 2xx responses are stored: a 404 leaves no key behind', async () => {
  const key = idem();
  const res = await post('/v1/threats/thr_doesnotexist', key, { title: 'x' });
  expect(res.status).toBe(404);
  expect(await h.ctx.db.prisma.idempotencyKey.count({ where: { key } })).toBe(0);
});

test.each(['/v1/signals', '/v1/threats'])(
  'on %s a key older than 24 h is forgotten: the same key with a new body runs',
  async (path) => {
    const key = idem();
    const body = path === '/v1/signals' ? signalBody(h.orgId) : THREAT;
    const first = await post(path, key, body);
    expect(first.status).toBeLessThan(300);
    await h.ctx.db.prisma.idempotencyKey.updateMany({
      where: { key },
      data: { created: new Date(Date.now() - 25 * 3600 * 1000) },
    });
    const other = path === '/v1/signals' ? signalBody(h.orgId) : { ...THREAT, title: 'after a day' };
    const later = await post(path, key, other);
    expect(later.status).toBe(first.status);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.body.id).not.toBe(first.body.id);
    // and the new response is what the key replays from now on
    const replay = await post(path, key, other);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(later.body.id);
  },
);
