import { ApiKeyAuthenticator } from '@risk/common/http';
import { QueueProducer } from '@risk/common/queue';
import { createHarness, type Harness } from './harness';
import { burstUntil429, get } from './rate-limits-fixtures';

// Rate limits and caps (docs/security.md "Rate limits and caps"); how these suites test them: rate-limits-fixtures.ts.

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
    // its own authenticator, as a replica process has
    const replica = h.appWith({ producer, authenticator: new ApiKeyAuthenticator(h.ctx.db.prisma) });
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
