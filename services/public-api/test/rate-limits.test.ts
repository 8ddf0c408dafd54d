import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import request from 'supertest';
import { ApiKeyAuthenticator, closeServer, listenWithLimits, QueueProducer } from '@risk/common';
import { createApp, MAX_HEADER_SIZE } from '../src/app';
import { createHarness, idem, type Harness } from './harness';

// Rate limits and caps (docs/security.md "Rate limits and caps"), tried as a hostile client would:
// real Redis counters, real low limits, two app instances standing in for two replicas. Limits are
// per 1 s fixed window, so checks that need one window retry with a fresh key when a window boundary
// falls between two requests (a key's first request always opens a new window).

const get = (h: Harness, key: string, path = '/v1/threats', app: Harness['app'] = h.app) =>
  request(app).get(path).set('Authorization', `Bearer ${key}`);

/** Sends GETs with `key` until one is refused (at most `max`); returns that 429 and how many passed before it. */
async function burstUntil429(h: Harness, key: string, max = 200) {
  for (let i = 0; i < max; i++) {
    const res = await get(h, key);
    if (res.status === 429) return { res, passed: i };
    expect(res.status).toBe(200);
  }
  throw new Error(`no 429 after ${max} requests`);
}

/** Parses `"<policy>";r=<n>;t=<n>` (draft-ietf-httpapi-ratelimit-headers-11 §3). */
function rateLimitField(value: string | undefined) {
  const m = /^"([a-z_]+)";r=(\d+);t=(\d+)$/.exec(value ?? '');
  if (!m) throw new Error(`not a RateLimit field: ${value}`);
  return { policy: m[1], r: Number(m[2]), t: Number(m[3]) };
}

describe('per-key limits on /v1', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('ratelimits', {
      env: { RATE_LIMIT_LIVE_PER_SECOND: '5', RATE_LIMIT_TEST_PER_SECOND: '3', RATE_LIMIT_BULK_WEIGHT: '4' },
    });
  });
  afterAll(() => h.close());

  test('a burst gets 429 rate_limited with Retry-After and the RateLimit headers, while another key is unaffected', async () => {
    const key = await h.mintKey();
    const other = await h.mintKey();
    const first = await get(h, key);
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-policy']).toBe('"live";q=5;w=1');
    expect(rateLimitField(first.headers.ratelimit)).toEqual({ policy: 'live', r: 4, t: 1 });

    const { res } = await burstUntil429(h, key);
    expect(res.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers['ratelimit-policy']).toBe('"live";q=5;w=1');
    expect(rateLimitField(res.headers.ratelimit)).toEqual({ policy: 'live', r: 0, t: 1 });
    // the other key of the same org has its own counter
    const unaffected = await get(h, other);
    expect(unaffected.status).toBe(200);
    expect(rateLimitField(unaffected.headers.ratelimit).r).toBe(4);
  });

  test('test-mode keys have their own, lower policy', async () => {
    const key = await h.mintKey({ livemode: false });
    const res = await get(h, key);
    expect(res.headers['ratelimit-policy']).toBe('"test";q=3;w=1');
    expect((await burstUntil429(h, key)).res.body.error.code).toBe('rate_limited');
  });

  test('a refused POST stores nothing: no idempotency record, no threat, and the key stays free', async () => {
    const body = { category: 'typosquat', title: 'lookalike package', severity: 'medium' };
    for (let attempt = 0; ; attempt++) {
      const key = await h.mintKey();
      await burstUntil429(h, key);
      const idempotencyKey = idem();
      const refused = await request(h.app)
        .post('/v1/threats')
        .set('Authorization', `Bearer ${key}`)
        .set('Idempotency-Key', idempotencyKey)
        .send(body);
      if (refused.status !== 429 && attempt < 5) continue; // a new window began between the burst and the POST
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      expect(await h.ctx.db.prisma.idempotencyKey.count({ where: { key: idempotencyKey } })).toBe(0);
      expect(await h.ctx.db.prisma.threat.count({ where: { title: body.title } })).toBe(0);
      // once the window has passed, the same Idempotency-Key runs the request for real
      await new Promise((r) => setTimeout(r, 1100));
      const retried = await request(h.app)
        .post('/v1/threats')
        .set('Authorization', `Bearer ${key}`)
        .set('Idempotency-Key', idempotencyKey)
        .send(body);
      expect(retried.status).toBe(201);
      return;
    }
  });

  test('a bulk request weighs RATE_LIMIT_BULK_WEIGHT requests, counted before its body is validated', async () => {
    for (let attempt = 0; ; attempt++) {
      const key = await h.mintKey();
      const bulk = await request(h.app)
        .post('/v1/signals/bulk')
        .set('Authorization', `Bearer ${key}`)
        .set('Idempotency-Key', idem())
        .send({ signals: [] });
      expect(bulk.status).toBe(400); // an empty list: validated after the limit
      expect(rateLimitField(bulk.headers.ratelimit).r).toBe(1); // 5 - 4
      const single = await get(h, key);
      if (single.status === 200 && rateLimitField(single.headers.ratelimit).r === 4 && attempt < 5) continue; // new window
      expect(single.status).toBe(200);
      expect(rateLimitField(single.headers.ratelimit).r).toBe(0);
      // the next bulk does not fit in what is left of the window
      const over = await request(h.app)
        .post('/v1/signals/bulk')
        .set('Authorization', `Bearer ${key}`)
        .set('Idempotency-Key', idem())
        .send({ signals: [] });
      if (over.status !== 429 && attempt < 5) continue;
      expect(over.status).toBe(429);
      return;
    }
  });

  test('two app instances (two replicas) share one counter through Redis', async () => {
    // a second replica: its own app, its own Redis connection, the same database and key prefix
    const producer = new QueueProducer({ url: h.ctx.redis.url, prefix: h.ctx.redis.prefix }, 'replica-2');
    const authenticator = new ApiKeyAuthenticator(h.ctx.db.prisma, { cacheTtlMs: 0 });
    const replica = createApp({
      config: h.ctx.config,
      prisma: h.ctx.db.prisma,
      pool: h.ctx.db.pool,
      producer,
      logger: h.ctx.logger,
      authenticator,
    });
    try {
      let shared = false;
      for (let attempt = 0; attempt < 6 && !shared; attempt++) {
        const key = await h.mintKey();
        const onA = await get(h, key);
        const onB = await get(h, key, '/v1/threats', replica);
        expect([onA.status, onB.status]).toEqual([200, 200]);
        // one counter: B sees A's request (per-process counters would both say r=4)
        shared = rateLimitField(onA.headers.ratelimit).r === 4 && rateLimitField(onB.headers.ratelimit).r === 3;
      }
      expect(shared).toBe(true);

      // and together they refuse the burst one of them alone would have allowed
      let refusedOnB = false;
      for (let attempt = 0; attempt < 6 && !refusedOnB; attempt++) {
        const key = await h.mintKey();
        const statuses: number[] = [];
        for (let i = 0; i < 3; i++) statuses.push((await get(h, key)).status);
        for (let i = 0; i < 3; i++) statuses.push((await get(h, key, '/v1/threats', replica)).status);
        // 6 requests, 3 per replica, quota 5: only a shared counter refuses one, on replica B
        refusedOnB = statuses.slice(0, 5).every((s) => s === 200) && statuses[5] === 429;
      }
      expect(refusedOnB).toBe(true);
    } finally {
      await authenticator.close();
      await producer.close();
    }
  });

  test('every authenticated route is limited, including the hand-written DELETE /v1/webhooks/:id', async () => {
    const key = await h.mintKey();
    await burstUntil429(h, key);
    const del = await request(h.app).delete('/v1/webhooks/we_nope').set('Authorization', `Bearer ${key}`);
    // within the same second the key is still over its quota
    expect([404, 429]).toContain(del.status);
    expect(del.headers.ratelimit).toBeDefined();
  });

  test('unauthenticated routes (/, /healthz, /v1/openapi.json) carry no limit', async () => {
    for (const path of ['/', '/healthz', '/v1/openapi.json']) {
      const res = await request(h.app).get(path);
      expect(res.status).toBe(200);
      expect(res.headers.ratelimit).toBeUndefined();
    }
  });
});

describe('per-IP limit on failed authentications', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('failedauth', {
      env: { RATE_LIMIT_FAILED_AUTH_PER_IP: '3', RATE_LIMIT_FAILED_AUTH_WINDOW_SECONDS: '60' },
    });
  });
  afterAll(() => h.close());

  test('after 3 failures from one address every request from it is 429, even with a valid key; X-Forwarded-For is not believed', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await get(h, `rk_live_guess${i}`);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('api_key_invalid');
    }
    const blocked = await get(h, 'rk_live_guess4');
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(50);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(blocked.headers['ratelimit-policy']).toBe('"failed_auth";q=3;w=60');
    // a guess that happens to be right is refused too: the block does not tell a right key from a wrong one
    expect((await get(h, h.key)).status).toBe(429);
    // TRUST_PROXY is off: a forged X-Forwarded-For changes nothing
    const forged = await get(h, 'rk_live_guess5').set('X-Forwarded-For', '203.0.113.9');
    expect(forged.status).toBe(429);
  });

  test('another replica refuses the blocked address at its first failure there', async () => {
    // (runs after the test above blocked 127.0.0.1 in this suite's Redis prefix)
    const producer = new QueueProducer({ url: h.ctx.redis.url, prefix: h.ctx.redis.prefix }, 'replica-2');
    const replica = createApp({
      config: h.ctx.config,
      prisma: h.ctx.db.prisma,
      pool: h.ctx.db.pool,
      producer,
      logger: h.ctx.logger,
    });
    try {
      const res = await get(h, 'rk_live_guess6', '/v1/threats', replica);
      expect(res.status).toBe(429);
      expect(res.body.error.code).toBe('rate_limited');
      // and from then on it refuses every request from that address, valid key or not
      expect((await get(h, h.key, '/v1/threats', replica)).status).toBe(429);
    } finally {
      await replica.locals.authenticator.close();
      await producer.close();
    }
  });

  test('behind a trusted proxy (TRUST_PROXY=1) the client address comes from X-Forwarded-For', async () => {
    const proxied = await createHarness('failedauthproxy', {
      env: { RATE_LIMIT_FAILED_AUTH_PER_IP: '2', TRUST_PROXY: '1' },
    });
    try {
      const from = (ip: string, key: string) => get(proxied, key).set('X-Forwarded-For', ip);
      expect((await from('198.51.100.7', 'rk_live_a')).status).toBe(401);
      expect((await from('198.51.100.7', 'rk_live_b')).status).toBe(401);
      expect((await from('198.51.100.7', 'rk_live_c')).status).toBe(429);
      // another client behind the same proxy is not blocked
      expect((await from('198.51.100.8', proxied.key)).status).toBe(200);
      expect((await from('198.51.100.8', 'rk_live_d')).status).toBe(401);
    } finally {
      await proxied.close();
    }
  });
});

describe('env settings turn limits off', () => {
  test('RATE_LIMIT_ENABLED=false: no 429 and no RateLimit headers, whatever the quotas', async () => {
    const h = await createHarness('ratelimitoff', {
      env: { RATE_LIMIT_ENABLED: 'false', RATE_LIMIT_LIVE_PER_SECOND: '1', RATE_LIMIT_FAILED_AUTH_PER_IP: '1' },
    });
    try {
      for (let i = 0; i < 10; i++) {
        const res = await get(h, h.key);
        expect(res.status).toBe(200);
        expect(res.headers.ratelimit).toBeUndefined();
      }
      for (let i = 0; i < 5; i++) expect((await get(h, 'rk_live_wrong')).status).toBe(401);
    } finally {
      await h.close();
    }
  });

  test('a quota of 0 turns that one limit off', async () => {
    const h = await createHarness('ratelimitzero', {
      env: { RATE_LIMIT_LIVE_PER_SECOND: '0', RATE_LIMIT_TEST_PER_SECOND: '1' },
    });
    try {
      for (let i = 0; i < 10; i++) expect((await get(h, h.key)).status).toBe(200);
      const testKey = await h.mintKey({ livemode: false });
      expect((await burstUntil429(h, testKey)).res.status).toBe(429);
    } finally {
      await h.close();
    }
  });
});

describe('Redis down', () => {
  test('each replica falls back to its own counter: requests pass, and a burst is still refused', async () => {
    const h = await createHarness('ratelimitnoredis', {
      env: { RATE_LIMIT_LIVE_PER_SECOND: '3' },
      redisUrl: 'redis://127.0.0.1:1',
    });
    try {
      const first = await get(h, h.key);
      expect(first.status).toBe(200);
      expect(first.headers['ratelimit-policy']).toBe('"live";q=3;w=1');
      expect((await burstUntil429(h, h.key)).res.body.error.code).toBe('rate_limited');
      // operators are told, once in a while rather than once per request
      const warnings = h.ctx.logLines.filter((l) => l.includes('rate limiter store unavailable'));
      expect(warnings.length).toBeGreaterThan(0);
      expect(warnings.length).toBeLessThanOrEqual(2);
    } finally {
      await h.close();
    }
  });
});

describe('the API key is checked before any body byte is read', () => {
  let h: Harness;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    h = await createHarness('authbeforebody', { env: { RATE_LIMIT_LIVE_PER_SECOND: '2' } });
    server = await listenWithLimits(h.app, { port: 0, host: '127.0.0.1', maxHeaderSize: MAX_HEADER_SIZE });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await closeServer(server, 1000);
    await h.close();
  });

  /**
   * Announces a 10 MiB body, sends only its first 64 KiB, and waits for the answer: a server that read
   * the body before authenticating would wait for the rest and never answer.
   */
  function postAnnouncingTenMiB(key: string): Promise<{ head: string; sentBytes: number; ms: number }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = net.connect(port, '127.0.0.1');
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let received = '';
      socket.on('connect', () => {
        socket.write(
          `POST /v1/signals/bulk HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nIdempotency-Key: ${idem()}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n{"signals":["`,
        );
        socket.write(chunk);
      });
      socket.on('data', (d) => {
        received += d.toString('latin1');
        if (received.includes('\r\n\r\n')) {
          resolve({ head: received, sentBytes: chunk.length, ms: Date.now() - started });
          socket.destroy();
        }
      });
      socket.on('error', reject);
      setTimeout(() => {
        socket.destroy();
        reject(new Error('no answer within 5 s: the server waited for the body'));
      }, 5000).unref();
    });
  }

  test('a bad key announcing a 10 MiB body gets 401 at once, without the body, and the connection is closed', async () => {
    const { head, ms } = await postAnnouncingTenMiB('rk_live_not_a_key');
    expect(head).toMatch(/^HTTP\/1\.1 401 /);
    expect(head).toMatch(/api_key_invalid/);
    expect(head.toLowerCase()).toContain('connection: close');
    expect(ms).toBeLessThan(2000);
  });

  test('a key over its limit announcing a 10 MiB body gets 429 without the body being read', async () => {
    let head = '';
    for (let attempt = 0; attempt < 6 && !/^HTTP\/1\.1 429 /.test(head); attempt++) {
      const key = await h.mintKey();
      await get(h, key);
      await get(h, key);
      head = (await postAnnouncingTenMiB(key)).head;
    }
    expect(head).toMatch(/^HTTP\/1\.1 429 /);
    expect(head.toLowerCase()).toContain('retry-after: 1');
  });
});

describe('caps per org', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('orgcaps', {
      env: { WEBHOOK_ENDPOINTS_PER_ORG: '2', THREAT_WRITES_PER_ORG_PER_HOUR: '3', EXPAND_AIBOM_MAX_ITEMS: '5' },
    });
  });
  afterAll(() => h.close());

  const post = (path: string, body: unknown, key = h.key) =>
    request(h.app)
      .post(path)
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', idem())
      .send(body as object);

  test('WEBHOOK_ENDPOINTS_PER_ORG: the third endpoint of a mode is 400 webhook_endpoint_limit_reached; the other mode and other orgs are separate', async () => {
    const endpoint = { url: 'https://127.0.0.1:9/risk', events: ['*'] };
    expect((await post('/v1/webhooks', endpoint)).status).toBe(201);
    expect((await post('/v1/webhooks', endpoint)).status).toBe(201);
    const third = await post('/v1/webhooks', endpoint);
    expect(third.status).toBe(400);
    expect(third.body.error).toMatchObject({ type: 'invalid_request_error', code: 'webhook_endpoint_limit_reached' });
    expect(await h.ctx.db.prisma.webhookEndpoint.count({ where: { org_id: h.orgId, livemode: true } })).toBe(2);
    const testKey = await h.mintKey({ livemode: false });
    expect((await post('/v1/webhooks', endpoint, testKey)).status).toBe(201);
    const otherOrg = await h.mintKey({ orgId: 'org_capsother' });
    expect((await post('/v1/webhooks', endpoint, otherOrg)).status).toBe(201);
    // deleting one frees a place
    const first = await h.ctx.db.prisma.webhookEndpoint.findFirstOrThrow({
      where: { org_id: h.orgId, livemode: true },
    });
    expect(
      (await request(h.app).delete(`/v1/webhooks/${first.id}`).set('Authorization', `Bearer ${h.key}`)).status,
    ).toBe(200);
    expect((await post('/v1/webhooks', endpoint)).status).toBe(201);
  });

  test('concurrent creates never overshoot the webhook endpoint cap', async () => {
    const key = await h.mintKey({ orgId: 'org_capsrace' });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => post('/v1/webhooks', { url: 'https://127.0.0.1:9/r', events: ['*'] }, key)),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(await h.ctx.db.prisma.webhookEndpoint.count({ where: { org_id: 'org_capsrace' } })).toBe(2);
  });

  test('THREAT_WRITES_PER_ORG_PER_HOUR: creates and updates count; over the cap is 429 threat_write_limit_reached with Retry-After', async () => {
    const key = await h.mintKey({ orgId: 'org_threatcap' });
    const created = await post('/v1/threats', { category: 'typosquat', title: 'a', severity: 'low' }, key);
    expect(created.status).toBe(201);
    expect((await post(`/v1/threats/${created.body.id}`, { title: 'b' }, key)).status).toBe(200);
    expect((await post('/v1/threats', { category: 'typosquat', title: 'c', severity: 'low' }, key)).status).toBe(201);
    const over = await post('/v1/threats', { category: 'typosquat', title: 'd', severity: 'low' }, key);
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({ type: 'rate_limit_error', code: 'threat_write_limit_reached' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(3500);
    expect(over.headers['ratelimit-policy']).toBe('"threat_writes";q=3;w=3600');
    expect(await h.ctx.db.prisma.threat.count({ where: { created_by_org: 'org_threatcap' } })).toBe(2);
    // another org (and the same org's test mode) write on
    const other = await h.mintKey({ orgId: 'org_threatcap2' });
    expect((await post('/v1/threats', { category: 'typosquat', title: 'e', severity: 'low' }, other)).status).toBe(201);
  });

  test('EXPAND_AIBOM_MAX_ITEMS bounds expand[]=aibom on look-ups and lists: 400 expand_limit_exceeded', async () => {
    const fps = (n: number) => Array.from({ length: n }, (_, i) => `fingerprints=sha256:${i}`).join('&');
    const lookup = (n: number, expand: string) =>
      get(h, h.key, `/v1/assets/lookup?${fps(n)}${expand ? `&expand[]=${expand}` : ''}`);
    expect((await lookup(5, 'aibom')).status).toBe(200);
    const over = await lookup(6, 'aibom');
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'expand_limit_exceeded', param: 'fingerprints' });
    // the bound is on AI-BOMs only
    expect((await lookup(6, 'findings')).status).toBe(200);
    expect((await lookup(6, '')).status).toBe(200);
    expect((await get(h, h.key, '/v1/assets?limit=5&expand[]=aibom')).status).toBe(200);
    const list = await get(h, h.key, '/v1/assets?limit=6&expand[]=data.aibom');
    expect(list.status).toBe(400);
    expect(list.body.error).toMatchObject({ code: 'expand_limit_exceeded', param: 'limit' });
  });
});
