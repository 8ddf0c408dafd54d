import { randomBytes, randomUUID } from 'node:crypto';
import { parsePrometheusText, sampleValue, samplesOf, type Sample } from '@risk/testing';
import request from 'supertest';
import { createHarness, type Harness } from './harness';

// GET /metrics on the public API (docs/observability.md): not there without METRICS_TOKEN, 401 without
// the token, and with it the route-template histograms, the rate-limit refusals and the process metrics.

const METRICS_TOKEN = randomBytes(24).toString('hex');
const DURATION = 'http_request_duration_seconds_count';

describe('public API /metrics', () => {
  let h: Harness;
  beforeAll(async () => {
    // test-mode keys get 2 requests per second: enough to see refusals without touching the live key's traffic
    h = await createHarness('metrics', { env: { METRICS_TOKEN, RATE_LIMIT_TEST_PER_SECOND: '2' } });
  });
  afterAll(() => h.close());

  async function scrape(): Promise<Sample[]> {
    const res = await request(h.app).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(res.text);
  }

  test('without METRICS_TOKEN the route does not exist (the API port publishes nothing by default)', async () => {
    const app = h.appWith({ config: { ...h.ctx.config, METRICS_TOKEN: undefined } });
    const res = await request(app).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('route_not_found');
  });

  test('a missing, wrong or API-key bearer is refused with 401', async () => {
    for (const auth of [undefined, `Bearer ${METRICS_TOKEN}x`, `Bearer ${h.key}`, `Basic ${METRICS_TOKEN}`]) {
      const req = request(h.app).get('/metrics');
      const res = await (auth ? req.set('Authorization', auth) : req);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('token_invalid');
      expect(res.text).not.toContain('http_request_duration_seconds');
    }
  });

  test('requests are counted under their route template and status, never their raw path', async () => {
    const before = await scrape();
    const auth = { Authorization: `Bearer ${h.key}` };
    for (let i = 0; i < 5; i++) expect((await request(h.app).get('/v1/threats').set(auth)).status).toBe(200);
    const missing = [`sig_${randomUUID().replace(/-/g, '')}`, `sig_${randomUUID().replace(/-/g, '')}`];
    for (const id of missing) expect((await request(h.app).get(`/v1/signals/${id}`).set(auth)).status).toBe(404);
    expect((await request(h.app).get('/v1/threats')).status).toBe(401);
    const after = await scrape();

    const delta = (labels: Record<string, string>) =>
      sampleValue(after, DURATION, labels) - sampleValue(before, DURATION, labels);
    expect(delta({ method: 'GET', route: '/v1/threats', status_code: '200' })).toBe(5);
    expect(delta({ method: 'GET', route: '/v1/threats', status_code: '401' })).toBe(1);
    expect(delta({ method: 'GET', route: '/v1/signals/:signal_id', status_code: '404' })).toBe(2);
    // the histogram's buckets and sum are there too, and the sum is a plausible duration
    const sum = sampleValue(after, 'http_request_duration_seconds_sum', {
      method: 'GET',
      route: '/v1/threats',
      status_code: '200',
    });
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(60);
    expect(
      sampleValue(after, 'http_request_duration_seconds_bucket', {
        method: 'GET',
        route: '/v1/threats',
        status_code: '200',
        le: '+Inf',
      }),
    ).toBe(sampleValue(after, DURATION, { method: 'GET', route: '/v1/threats', status_code: '200' }));
    for (const id of missing) expect(JSON.stringify(after)).not.toContain(id);
  });

  test('random paths add no label: they share the one <unmatched> route label', async () => {
    await request(h.app).get(`/warmup-${randomUUID()}`); // the <unmatched> series exists from here on
    const before = await scrape();
    const seriesBefore = samplesOf(before, DURATION).length;
    const randomPaths = Array.from({ length: 4 }, () => `/${randomUUID()}/${randomBytes(4).toString('hex')}`);
    for (const path of randomPaths) expect((await request(h.app).get(path)).status).toBe(404);
    expect((await request(h.app).get(`/v1/${randomUUID()}`)).status).toBe(404);
    const after = await scrape();

    // the scrape itself adds at most its own series (GET /metrics 200), which `before` already counted
    expect(samplesOf(after, DURATION).length).toBe(seriesBefore);
    const unmatched = { method: 'GET', route: '<unmatched>', status_code: '404' };
    expect(sampleValue(after, DURATION, unmatched) - sampleValue(before, DURATION, unmatched)).toBe(5);
    const text = JSON.stringify(after);
    for (const path of randomPaths) expect(text).not.toContain(path.split('/')[1]!);
  });

  test('rate-limit refusals are counted by policy', async () => {
    const testKey = await h.mintKey({ livemode: false });
    const before = await scrape();
    let refused = 0;
    for (let i = 0; i < 8; i++) {
      const res = await request(h.app).get('/v1/threats').set('Authorization', `Bearer ${testKey}`);
      if (res.status === 429) refused++;
      else expect(res.status).toBe(200);
    }
    expect(refused).toBeGreaterThan(0);
    const after = await scrape();
    const policy = { policy: 'test' };
    expect(
      sampleValue(after, 'risk_rate_limit_refusals_total', policy) -
        sampleValue(before, 'risk_rate_limit_refusals_total', policy),
    ).toBe(refused);
    expect(
      sampleValue(after, DURATION, { method: 'GET', route: '/v1/threats', status_code: '429' }) -
        sampleValue(before, DURATION, { method: 'GET', route: '/v1/threats', status_code: '429' }),
    ).toBe(refused);
  });

  test('process metrics come with the scrape', async () => {
    const samples = await scrape();
    expect(sampleValue(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samplesOf(samples, 'nodejs_eventloop_lag_seconds').length).toBe(1);
  });
});
