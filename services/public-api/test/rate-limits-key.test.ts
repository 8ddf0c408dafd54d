import request from 'supertest';
import { ApiKeyAuthenticator } from '@risk/common/http';
import { QueueProducer } from '@risk/common/queue';
import { createHarness, idem, type Harness } from './harness';
import { burstUntil429, get, rateLimitField } from './rate-limits-fixtures';

// Rate limits and caps (docs/security.md "Rate limits and caps"); how these suites test them: rate-limits-fixtures.ts.

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
    const replica = h.appWith({ producer, authenticator });
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
