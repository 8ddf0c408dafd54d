import request from 'supertest';
import { postJson, type Harness } from './harness';
import { bearer, createThreatsHarness, fullThreat } from './threats-fixtures';

let h: Harness;
let otherOrgKey: string;
const auth = (key = h.key) => bearer(key);
const post = (path: string, body: unknown, key = h.key) => postJson(h, path, body, key);

beforeAll(async () => {
  ({ h, otherOrgKey } = await createThreatsHarness('threats-update'));
});
afterAll(() => h.close());

describe('threat CRUD', () => {
  test('POST /v1/threats/{id} updates only the fields sent; id, created and created_by_org are immutable', async () => {
    const created = (await post('/v1/threats', fullThreat)).body;
    await new Promise((r) => setTimeout(r, 1100)); // so `updated` moves on a second boundary
    const res = await post(`/v1/threats/${created.id}`, { severity: 'high', description: null, risk_penalty: 25 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...created,
      severity: 'high',
      description: null,
      risk_penalty: 25,
      updated: expect.any(Number),
    });
    expect(res.body.updated).toBeGreaterThan(created.updated);
    for (const field of ['id', 'created', 'created_by_org', 'livemode', 'object']) {
      const bad = await post(`/v1/threats/${created.id}`, { [field]: 'x' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: 'parameter_unknown', param: field });
    }
    const invalid = await post(`/v1/threats/${created.id}`, { cve_id: 'nope' });
    expect(invalid.body.error).toMatchObject({ code: 'parameter_invalid', param: 'cve_id' });
  });

  test('another org cannot update a threat: 403 permission_error not_owner, and nothing changes', async () => {
    const created = (await post('/v1/threats', fullThreat)).body;
    const res = await post(`/v1/threats/${created.id}`, { title: 'hijacked' }, otherOrgKey);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'not_owner' });
    // but it can read it: threats are shared
    const got = await request(h.app).get(`/v1/threats/${created.id}`).set(auth(otherOrgKey));
    expect(got.status).toBe(200);
    expect(got.body.title).toBe(fullThreat.title);
  });

  test('updating an unknown threat is 404', async () => {
    const res = await post('/v1/threats/thr_nope', { title: 'x' });
    expect(res.status).toBe(404);
  });

  test('threats are read per mode: a test-mode key does not see live threats', async () => {
    const created = (await post('/v1/threats', fullThreat)).body;
    const testKey = await h.mintKey({ livemode: false });
    expect((await request(h.app).get(`/v1/threats/${created.id}`).set(auth(testKey))).status).toBe(404);
    const mine = await post(
      '/v1/threats',
      { category: 'jailbreak', title: 'test-mode threat', severity: 'low' },
      testKey,
    );
    expect(mine.body.livemode).toBe(false);
    const list = await request(h.app).get('/v1/threats?limit=100').set(auth(testKey));
    expect(list.body.data.map((t: { id: string }) => t.id)).toEqual([mine.body.id]);
  });
});

describe('threat events', () => {
  test('an update that changes nothing (metadata keys in another order included) records no event', async () => {
    const created = (
      await post('/v1/threats', { ...fullThreat, metadata: { feed: 'internal', rank: 2, nested: { b: 1, a: 2 } } })
    ).body;
    const same = await post(`/v1/threats/${created.id}`, {
      severity: created.severity,
      metadata: { nested: { a: 2, b: 1 }, rank: 2, feed: 'internal' },
    });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(created);
    const events = await h.ctx.db.prisma.event.findMany({
      where: { data: { path: ['object', 'id'], equals: created.id } },
    });
    expect(events.map((e) => e.type)).toEqual(['threat.created']);
  });

  test('creating and updating a threat records threat.created and threat.updated (with previous_attributes)', async () => {
    const created = (
      await post('/v1/threats', {
        category: 'data_poisoning',
        title: 'poisoned set',
        severity: 'medium',
        risk_penalty: 5,
      })
    ).body;
    await post(`/v1/threats/${created.id}`, { severity: 'high', risk_penalty: 15 });
    const events = await h.ctx.db.prisma.event.findMany({
      where: { data: { path: ['object', 'id'], equals: created.id } },
      orderBy: { id: 'asc' },
    });
    expect(events.map((e) => e.type)).toEqual(['threat.created', 'threat.updated']);
    expect(events[0]).toMatchObject({ org_id: null, fingerprint: null, livemode: true });
    expect(events[0]!.data).toEqual({ object: created });
    expect(events[1]!.data).toMatchObject({
      object: { id: created.id, severity: 'high', risk_penalty: 15 },
      previous_attributes: { severity: 'medium', risk_penalty: 5, updated: created.updated },
    });
  });
});
