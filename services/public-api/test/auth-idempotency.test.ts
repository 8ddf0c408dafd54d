import { SCOPES, type Scope } from '@risk/contracts';
import request from 'supertest';
import { createHarness, idem, postJson, postSignal, signalBody, type Harness } from './harness';

let h: Harness;
let fp: string;
let signalId: string;
let threatId: string;
let webhookId: string;
let eventId: string;
beforeAll(async () => {
  h = await createHarness('authidem');
  const body = signalBody(h.orgId, { fingerprint: 'hf:org/model@1' });
  fp = body.fingerprint as string;
  signalId = (await postSignal(h, body)).body.id;
  const threat = await postJson(h, '/v1/threats', THREAT);
  expect(threat.status).toBe(201);
  threatId = threat.body.id;
  const webhook = await postJson(h, '/v1/webhooks', WEBHOOK);
  expect(webhook.status).toBe(201);
  webhookId = webhook.body.id;
  // creating the threat recorded a threat.created event for this org
  eventId = (await request(h.app).get('/v1/events?limit=1').set('Authorization', `Bearer ${h.key}`)).body.data[0].id;
  expect(eventId).toMatch(/^evt_/);
});
afterAll(() => h.close());

const THREAT = { category: 'malicious_model', title: 'auth matrix threat', severity: 'low' };
// live-mode keys need https; 127.0.0.1 is on the test OUTBOUND_ALLOWED_HOSTS_WEBHOOK list, so nothing is resolved
const WEBHOOK = { url: 'https://127.0.0.1/hooks', events: ['threat.created'] };

type Route = { method: 'get' | 'post' | 'delete'; path: () => string; scope: Scope | null; body?: () => unknown };
/** Every /v1 route the service serves except GET /v1/openapi.json (public); scope null: any valid key. */
const ROUTES: Route[] = [
  { method: 'post', path: () => '/v1/signals', scope: 'signals:write', body: () => signalBody(h.orgId) },
  {
    method: 'post',
    path: () => '/v1/signals/bulk',
    scope: 'signals:write',
    body: () => ({ signals: [signalBody(h.orgId)] }),
  },
  { method: 'get', path: () => `/v1/signals/${signalId}`, scope: 'signals:read' },
  { method: 'get', path: () => '/v1/assets', scope: 'assets:read' },
  { method: 'get', path: () => `/v1/assets/lookup?fingerprints=${encodeURIComponent(fp)}`, scope: 'assets:read' },
  { method: 'get', path: () => `/v1/assets/${encodeURIComponent(fp)}`, scope: 'assets:read' },
  { method: 'get', path: () => `/v1/assets/${encodeURIComponent(fp)}/findings`, scope: 'assets:read' },
  { method: 'get', path: () => `/v1/assets/${encodeURIComponent(fp)}/aibom`, scope: 'assets:read' },
  { method: 'get', path: () => `/v1/assets/${encodeURIComponent(fp)}/threats`, scope: 'assets:read' },
  { method: 'post', path: () => '/v1/threats', scope: 'threats:write', body: () => THREAT },
  { method: 'get', path: () => '/v1/threats', scope: 'threats:read' },
  { method: 'get', path: () => `/v1/threats/${threatId}`, scope: 'threats:read' },
  {
    method: 'post',
    path: () => `/v1/threats/${threatId}`,
    scope: 'threats:write',
    body: () => ({ title: `renamed ${idem()}` }),
  },
  { method: 'post', path: () => '/v1/webhooks', scope: 'webhooks:write', body: () => WEBHOOK },
  { method: 'get', path: () => '/v1/webhooks', scope: 'webhooks:write' },
  { method: 'get', path: () => `/v1/webhooks/${webhookId}`, scope: 'webhooks:write' },
  {
    method: 'post',
    path: () => `/v1/webhooks/${webhookId}`,
    scope: 'webhooks:write',
    body: () => ({ description: `desc ${idem()}` }),
  },
  { method: 'post', path: () => `/v1/webhooks/${webhookId}/rotate_secret`, scope: 'webhooks:write', body: () => ({}) },
  { method: 'get', path: () => `/v1/webhooks/${webhookId}/deliveries`, scope: 'webhooks:write' },
  { method: 'get', path: () => '/v1/events', scope: null },
  { method: 'get', path: () => `/v1/events/${eventId}`, scope: null },
  // last: it removes the endpoint the routes above use
  { method: 'delete', path: () => `/v1/webhooks/${webhookId}`, scope: 'webhooks:write' },
];

function send(route: Route, authorization?: string) {
  let req =
    route.method === 'get'
      ? request(h.app).get(route.path())
      : route.method === 'delete'
        ? request(h.app).delete(route.path())
        : request(h.app).post(route.path()).set('Idempotency-Key', idem());
  if (authorization !== undefined) req = req.set('Authorization', authorization);
  return route.body ? req.send(route.body() as object) : req;
}

describe.each(ROUTES.map((r) => [`${r.method.toUpperCase()} ${r.path().split('?')[0]}`, r] as const))(
  'auth on %s',
  (_name, route) => {
    test.each([
      ['no key', async () => undefined, 'api_key_missing'],
      ['a malformed header', async () => 'Basic abc', 'api_key_invalid'],
      ['an unknown key', async () => 'Bearer rk_live_doesnotexist', 'api_key_invalid'],
      [
        'an expired key',
        async () => `Bearer ${await h.mintKey({ expiresAt: new Date(Date.now() - 1000) })}`,
        'api_key_expired',
      ],
      [
        'a revoked key',
        async () => {
          const key = await h.mintKey();
          const { hashApiKey } = await import('@risk/common/api-keys');
          await h.ctx.db.prisma.apiKey.update({
            where: { key_hash: hashApiKey(key) },
            data: { revoked_at: new Date() },
          });
          return `Bearer ${key}`;
        },
        'api_key_revoked',
      ],
    ])('%s is 401 authentication_error', async (_label, header, code) => {
      const res = await send(route, await header());
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ type: 'authentication_error', code });
      expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
    });

    if (route.scope) {
      const scope = route.scope;
      test(`a key without ${scope} is 403 insufficient_scope`, async () => {
        const res = await send(route, `Bearer ${await h.mintKey({ scopes: SCOPES.filter((s) => s !== scope) })}`);
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'insufficient_scope' });
        expect(res.body.error.message).toContain(scope);
        expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
      });
    }

    test(`a key with only ${route.scope ?? 'no scope at all'} gets through`, async () => {
      const res = await send(route, `Bearer ${await h.mintKey({ scopes: route.scope ? [route.scope] : [] })}`);
      expect([200, 201, 202, 404]).toContain(res.status);
      if (res.status === 404) expect(res.body.error.code).toBe('asset_not_enriched'); // findings/aibom/threats of a pending asset
    });
  },
);

test('GET /v1/openapi.json is public: no key needed, and a bad key is not even looked at', async () => {
  expect((await request(h.app).get('/v1/openapi.json')).status).toBe(200);
  expect((await request(h.app).get('/v1/openapi.json').set('Authorization', 'Bearer rk_live_nope')).status).toBe(200);
});

describe('idempotency', () => {
  const post = (key: string, body: unknown, path = '/v1/signals') =>
    request(h.app)
      .post(path)
      .set('Authorization', `Bearer ${h.key}`)
      .set('Idempotency-Key', key)
      .send(body as object);

  test('a POST without Idempotency-Key is 400 idempotency_key_missing; a non-UUID is 400 idempotency_key_invalid', async () => {
    const missing = await request(h.app)
      .post('/v1/signals')
      .set('Authorization', `Bearer ${h.key}`)
      .send(signalBody(h.orgId));
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_key_missing' });
    const invalid = await post('not-a-uuid', signalBody(h.orgId));
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_key_invalid' });
  });

  test('replays the first response for the same key and body (any key order), marking it replayed', async () => {
    const key = idem();
    const body = signalBody(h.orgId, { metadata: { a: 1, b: 2 } });
    const first = await post(key, body);
    expect(first.status).toBe(202);
    const reordered = Object.fromEntries(Object.entries({ ...body, metadata: { b: 2, a: 1 } }).reverse());
    const second = await post(key, reordered);
    expect(second.status).toBe(202);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['original-request']).toBe(first.headers['x-request-id']);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(await h.ctx.db.prisma.signal.count({ where: { fingerprint: body.fingerprint as string } })).toBe(1);
  });

  test('the same key with a different body is 400 idempotency_replay_mismatch', async () => {
    const key = idem();
    const body = signalBody(h.orgId);
    expect((await post(key, body)).status).toBe(202);
    const res = await post(key, { ...body, version: 'other' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_replay_mismatch' });
  });

  test('keys are scoped by path and org: the same key elsewhere is a new request', async () => {
    const key = idem();
    expect((await post(key, signalBody(h.orgId))).status).toBe(202);
    const bulkRes = await post(key, { signals: [signalBody(h.orgId)] }, '/v1/signals/bulk');
    expect(bulkRes.status).toBe(202);
    expect(bulkRes.headers['idempotent-replayed']).toBeUndefined();
    const otherOrgKey = await h.mintKey({ orgId: 'org_second' });
    const otherOrg = await request(h.app)
      .post('/v1/signals')
      .set('Authorization', `Bearer ${otherOrgKey}`)
      .set('Idempotency-Key', key)
      .send(signalBody('org_second'));
    expect(otherOrg.status).toBe(202);
    expect(otherOrg.headers['idempotent-replayed']).toBeUndefined();
  });

  test('a failed request releases its key, so a corrected retry with the same key runs', async () => {
    const key = idem();
    const bad = await post(key, signalBody('org_not_mine'));
    expect(bad.status).toBe(403);
    const good = await post(key, signalBody(h.orgId));
    expect(good.status).toBe(202);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
    // validation failures never claim a key at all
    const invalid = await post(idem(), { nope: true });
    expect(invalid.status).toBe(400);
  });

  test('a duplicate sent while the first request is still in flight is 409 idempotency_key_in_use', async () => {
    // hold the asset row so the first request waits inside its transaction, after claiming the key
    const lock = await h.ctx.db.pool.connect();
    await lock.query('BEGIN');
    await lock.query('SELECT 1 FROM assets WHERE fingerprint = $1 FOR UPDATE', [fp]);
    const key = idem();
    const body = signalBody(h.orgId, { fingerprint: fp });
    const first = post(key, body).then((r) => r);
    try {
      for (let i = 0; i < 100; i++) {
        const claimed = await h.ctx.db.prisma.idempotencyKey.count({ where: { key } });
        if (claimed) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const second = await post(key, body);
      expect(second.status).toBe(409);
      expect(second.body.error).toMatchObject({ type: 'conflict_error', code: 'idempotency_key_in_use' });
    } finally {
      await lock.query('COMMIT');
      lock.release();
    }
    const firstRes = await first;
    expect(firstRes.status).toBe(202);
    const third = await post(key, body);
    expect(third.status).toBe(202);
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(third.body.id).toBe(firstRes.body.id);
  });

  test('two identical requests raced at once store one signal', async () => {
    const key = idem();
    const body = signalBody(h.orgId);
    const results = await Promise.all([post(key, body), post(key, body), post(key, body)]);
    for (const r of results) expect([202, 409]).toContain(r.status);
    expect(results.filter((r) => r.status === 202 && r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(await h.ctx.db.prisma.signal.count({ where: { fingerprint: body.fingerprint as string } })).toBe(1);
  });
});

describe('last_used_at', () => {
  test('is written in one batched update, not per request', async () => {
    const key = await h.mintKey({ scopes: ['assets:read'] });
    for (let i = 0; i < 3; i++)
      expect((await request(h.app).get('/v1/assets?limit=1').set('Authorization', `Bearer ${key}`)).status).toBe(200);
    const { hashApiKey } = await import('@risk/common/api-keys');
    const row = () => h.ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { key_hash: hashApiKey(key) } });
    expect((await row()).last_used_at).toBeNull();
    await h.authenticator.flushLastUsed();
    expect((await row()).last_used_at).not.toBeNull();
  });
});
