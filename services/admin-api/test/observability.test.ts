import { randomBytes, randomUUID } from 'node:crypto';
import { QUEUES, QueueProducer } from '@risk/common/queue';
import { parsePrometheusText, sampleValue, samplesOf, type Sample } from '@risk/testing';
import request from 'supertest';
import { createAdminHarness, type AdminHarness } from './harness';

// The admin API's /metrics (docs/observability.md "Scraping") and Bull Board at /admin/queues behind the
// admin token (docs/observability.md "Bull Board").

const METRICS_TOKEN = randomBytes(24).toString('hex');
const DURATION = 'http_request_duration_seconds_count';

let h: AdminHarness;
beforeAll(async () => {
  h = await createAdminHarness('observability', { env: { METRICS_TOKEN } });
});
afterAll(() => h.close());

async function scrape(): Promise<Sample[]> {
  const res = await request(h.app).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
  expect(res.status).toBe(200);
  return parsePrometheusText(res.text);
}

describe('admin API /metrics', () => {
  test('refuses without the metrics token (the admin token is not it)', async () => {
    for (const auth of [undefined, h.adminAuth, `Bearer ${METRICS_TOKEN.slice(1)}`]) {
      const req = request(h.app).get('/metrics');
      const res = await (auth ? req.set('Authorization', auth) : req);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }
  });

  test('counts requests by route template, unmatched paths under one label', async () => {
    const tenant = await h.registerTenant();
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await h.call('get', '/tenants/v1', { auth: h.adminAuth })).status).toBe(200);
    expect((await h.call('get', `/tenants/v1/${tenant.id}`, { auth: h.adminAuth })).status).toBe(200);
    const missing = `ten_${randomUUID().replace(/-/g, '')}`;
    expect((await h.call('get', `/tenants/v1/${missing}`, { auth: h.adminAuth })).status).toBe(404);
    const random = randomUUID();
    expect((await h.call('get', `/${random}`)).status).toBe(404);
    const after = await scrape();

    const delta = (labels: Record<string, string>) =>
      sampleValue(after, DURATION, labels) - sampleValue(before, DURATION, labels);
    expect(delta({ method: 'GET', route: '/tenants/v1', status_code: '200' })).toBe(3);
    expect(delta({ method: 'GET', route: '/tenants/v1/:id', status_code: '200' })).toBe(1);
    expect(delta({ method: 'GET', route: '/tenants/v1/:id', status_code: '404' })).toBe(1);
    expect(delta({ method: 'GET', route: '<unmatched>', status_code: '404' })).toBe(1);
    const text = JSON.stringify(after);
    for (const raw of [tenant.id, missing, random]) expect(text).not.toContain(raw);
    // no label set appeared beyond the ones this traffic and the first scrape named
    const labelSets = new Set(samplesOf(after, DURATION).map((s) => `${s.labels.route} ${s.labels.status_code}`));
    expect([...labelSets].filter((l) => l.includes('ten_'))).toEqual([]);
  });
});

describe('Bull Board at /admin/queues', () => {
  test('refuses without the admin token: no token, a wrong one, a tenant token', async () => {
    const tenant = await h.registerTenant();
    const wrongBasic = `Basic ${Buffer.from(`operator:${randomBytes(24).toString('hex')}`).toString('base64')}`;
    for (const auth of [undefined, 'Bearer not-the-admin-token-at-all-000', tenant.auth, wrongBasic]) {
      for (const path of ['/admin/queues', '/admin/queues/api/queues', '/admin/queues/static/js/main.js']) {
        const req = request(h.app).get(path);
        const res = await (auth ? req.set('Authorization', auth) : req);
        expect(res.status).toBe(401);
        expect(res.headers['www-authenticate']).toMatch(/^Basic realm="queues"/);
        expect(res.body.error.code).toMatch(/^token_(missing|invalid)$/);
      }
    }
  });

  test('serves the page and the queue API with the admin token (Bearer or Basic password)', async () => {
    const producer = new QueueProducer(h.ctx.redis, 'observability-test');
    try {
      await producer.enqueueFirewallSync([{ assignment_id: `pa_${randomUUID()}`, action: 'apply', version: 1 }]);
      const page = await request(h.app).get('/admin/queues').set('Authorization', h.adminAuth);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('<base href="/admin/queues/"');
      expect(page.headers['x-powered-by']).toBeUndefined();

      const basic = `Basic ${Buffer.from(`operator:${h.ctx.config.ADMIN_API_TOKEN}`).toString('base64')}`;
      const api = await request(h.app).get('/admin/queues/api/queues').set('Authorization', basic);
      expect(api.status).toBe(200);
      const queues = api.body.queues as Array<{ name: string; counts: Record<string, number> }>;
      expect(queues.map((q) => q.name).sort()).toEqual(Object.values(QUEUES).sort());
      const sync = queues.find((q) => q.name === QUEUES.firewallSync)!;
      expect(sync.counts.waiting).toBe(1);
    } finally {
      await producer.close();
    }
  });

  test('refuses job data nested deeper than any body may be with the 400 envelope, and adds no job', async () => {
    const add = (data: string) =>
      request(h.app)
        .post(`/admin/queues/api/queues/${QUEUES.firewallSync}/add`)
        .set('Authorization', h.adminAuth)
        .set('X-Queues-Board-CSRF', '1')
        .set('Content-Type', 'application/json')
        .send(`{"name":"deep","data":{"x":${data}}}`);
    const waiting = async () =>
      (
        (await request(h.app).get('/admin/queues/api/queues').set('Authorization', h.adminAuth)).body.queues as Array<{
          name: string;
          counts: Record<string, number>;
        }>
      ).find((q) => q.name === QUEUES.firewallSync)!.counts.waiting;
    const before = await waiting();
    // the board itself answered 500 "Maximum call stack size exceeded" here
    const res = await add('['.repeat(20_000) + ']'.repeat(20_000));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid' });
    expect(res.body.error.param).toMatch(/^data\.x(\[0\])+$/);
    expect(await waiting()).toBe(before);
  });
});
