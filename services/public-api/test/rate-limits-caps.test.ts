import request from 'supertest';
import { createHarness, idem, type Harness } from './harness';
import { get } from './rate-limits-fixtures';

// Rate limits and caps (docs/security.md "Rate limits and caps"); how these suites test them: rate-limits-fixtures.ts.

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
