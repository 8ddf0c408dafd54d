import { recordEvents } from '@risk/common/events';
import { EXAMPLE_ASSET_ENRICHED_OBJECT, EXAMPLE_THREAT, EXAMPLE_WEBHOOK_ENDPOINT } from '@risk/contracts';
import request from 'supertest';
import { createHarness, idem, postSignal, signalBody, type Harness } from './harness';

let h: Harness;
const auth = (key = h.key) => ({ Authorization: `Bearer ${key}` });
const ids = (res: request.Response) => res.body.data.map((e: { id: string }) => e.id);

let threatEventIds: string[] = []; // oldest first
let assetFp: string;
let otherOrgKey: string;

beforeAll(async () => {
  h = await createHarness('events');
  otherOrgKey = await h.mintKey({ orgId: 'org_events_other', scopes: ['signals:read'] });
  // five threat events (audience: everyone), created through the API
  for (let i = 0; i < 5; i++) {
    const res = await request(h.app)
      .post('/v1/threats')
      .set(auth())
      .set('Idempotency-Key', idem())
      .send({ category: 'jailbreak', title: `jailbreak ${i}`, severity: 'low' });
    expect(res.status).toBe(201);
  }
  threatEventIds = (
    await h.ctx.db.prisma.event.findMany({ where: { type: 'threat.created' }, orderBy: { id: 'asc' } })
  ).map((e) => e.id);
  // an asset our org submitted signals for, and events about it and about an asset only another org knows
  const body = signalBody(h.orgId);
  assetFp = body.fingerprint as string;
  await postSignal(h, body);
  await h.ctx.db.prisma.$transaction((tx) =>
    recordEvents(tx, [
      {
        type: 'asset.enriched',
        livemode: true,
        fingerprint: assetFp,
        object: { ...EXAMPLE_ASSET_ENRICHED_OBJECT, fingerprint: assetFp },
      },
      {
        type: 'asset.enriched',
        livemode: true,
        fingerprint: 'fp-unknown-to-us',
        object: { ...EXAMPLE_ASSET_ENRICHED_OBJECT, fingerprint: 'fp-unknown-to-us' },
      },
      {
        type: 'webhook_endpoint.disabled',
        livemode: true,
        org_id: 'org_events_other',
        object: { ...EXAMPLE_WEBHOOK_ENDPOINT, status: 'disabled', disabled_reason: 'the endpoint answered 410 Gone' },
        extra: { previous_attributes: { status: 'enabled', disabled_reason: null } },
      },
    ]),
  );
});
afterAll(() => h.close());

describe('GET /v1/events', () => {
  test('lists the org audience newest first in the list envelope, with the event shape deliveries carry', async () => {
    const res = await request(h.app).get('/v1/events').set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', url: '/v1/events', has_more: false, next_cursor: null });
    const types = res.body.data.map((e: { type: string }) => e.type);
    // asset.created may come from signal ingest too; ours are the threat and our asset's events
    expect(types.filter((t: string) => t === 'threat.created')).toHaveLength(5);
    expect(
      res.body.data
        .filter((e: { type: string; data: { object: { fingerprint?: string } } }) => e.type === 'asset.enriched')
        .map((e: { data: { object: { fingerprint?: string } } }) => e.data.object.fingerprint),
    ).toEqual([assetFp]);
    expect(types).not.toContain('webhook_endpoint.disabled');
    const newest = res.body.data[0];
    expect(newest).toEqual({
      id: expect.stringMatching(/^evt_/),
      object: 'event',
      type: expect.any(String),
      created: expect.any(Number),
      livemode: true,
      data: { object: expect.any(Object) },
    });
    const createdSorted = [...res.body.data].map((e: { created: number }) => e.created);
    expect(createdSorted).toEqual([...createdSorted].sort((a, b) => b - a));
  });

  test('another org sees the threat events and its own events, not asset events of assets it never reported', async () => {
    const res = await request(h.app).get('/v1/events?limit=100').set(auth(otherOrgKey));
    expect(res.status).toBe(200); // any valid key: no scope needed
    const types = res.body.data.map((e: { type: string }) => e.type).sort();
    expect(types).toEqual([
      'threat.created',
      'threat.created',
      'threat.created',
      'threat.created',
      'threat.created',
      'webhook_endpoint.disabled',
    ]);
  });

  test('filters by type', async () => {
    const res = await request(h.app).get('/v1/events?type=threat.created').set(auth());
    expect(ids(res)).toEqual([...threatEventIds].reverse());
    const bad = await request(h.app).get('/v1/events?type=threat.deleted').set(auth());
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'type' });
  });

  test('pages forward with starting_after and back with ending_before', async () => {
    const newestFirst = [...threatEventIds].reverse();
    const q = (qs: string) => request(h.app).get(`/v1/events?type=threat.created&${qs}`).set(auth());
    const p1 = await q('limit=2');
    expect(ids(p1)).toEqual(newestFirst.slice(0, 2));
    expect(p1.body).toMatchObject({ has_more: true, next_cursor: newestFirst[1] });
    const p2 = await q(`limit=2&starting_after=${p1.body.next_cursor}`);
    expect(ids(p2)).toEqual(newestFirst.slice(2, 4));
    const p3 = await q(`limit=2&starting_after=${p2.body.next_cursor}`);
    expect(ids(p3)).toEqual(newestFirst.slice(4));
    expect(p3.body).toMatchObject({ has_more: false, next_cursor: null });
    const back = await q(`limit=2&ending_before=${newestFirst[4]}`);
    expect(ids(back)).toEqual(newestFirst.slice(2, 4));
    expect(back.body.has_more).toBe(true);
    const backToTop = await q(`limit=2&ending_before=${newestFirst[2]}`);
    expect(ids(backToTop)).toEqual(newestFirst.slice(0, 2));
    expect(backToTop.body.has_more).toBe(false);
    expect((await q(`starting_after=${newestFirst[0]}&ending_before=${newestFirst[1]}`)).body.error).toMatchObject({
      code: 'parameters_exclusive',
    });
    expect((await q('starting_after=evt_nope')).body.error).toMatchObject({
      code: 'resource_missing',
      param: 'starting_after',
    });
    expect((await q('limit=0')).body.error).toMatchObject({ param: 'limit' });
  });

  test('an event outside the org audience cannot be used as a cursor', async () => {
    const foreign = await h.ctx.db.prisma.event.findFirstOrThrow({ where: { org_id: 'org_events_other' } });
    const res = await request(h.app).get(`/v1/events?starting_after=${foreign.id}`).set(auth());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
  });

  test('serves only the last 30 days', async () => {
    const [oldId] = await h.ctx.db.prisma.$transaction((tx) =>
      recordEvents(tx, [
        {
          type: 'threat.updated',
          livemode: true,
          object: EXAMPLE_THREAT,
          extra: { previous_attributes: { title: 'old' } },
        },
      ]),
    );
    // by id alone: the primary key is (id, created) since events are partitioned by month
    await h.ctx.db.prisma.event.updateMany({
      where: { id: oldId! },
      data: { created: new Date(Date.now() - 31 * 86400_000) },
    });
    const res = await request(h.app).get('/v1/events?type=threat.updated').set(auth());
    expect(ids(res)).not.toContain(oldId);
    expect((await request(h.app).get(`/v1/events/${oldId}`).set(auth())).status).toBe(404);
  });

  test('needs a valid key', async () => {
    const res = await request(h.app).get('/v1/events');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ type: 'authentication_error', code: 'api_key_missing' });
  });
});

describe('GET /v1/events/{id}', () => {
  test('retrieves an event of the org audience', async () => {
    const res = await request(h.app).get(`/v1/events/${threatEventIds[0]}`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: threatEventIds[0],
      object: 'event',
      type: 'threat.created',
      data: { object: { object: 'threat', title: 'jailbreak 0' } },
    });
  });

  test("another org's event, or an asset event of an asset the org never reported, is 404", async () => {
    const foreign = await h.ctx.db.prisma.event.findFirstOrThrow({ where: { org_id: 'org_events_other' } });
    const res = await request(h.app).get(`/v1/events/${foreign.id}`).set(auth());
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'resource_missing', param: 'event_id' });
    const unknownAsset = await h.ctx.db.prisma.event.findFirstOrThrow({ where: { fingerprint: 'fp-unknown-to-us' } });
    expect((await request(h.app).get(`/v1/events/${unknownAsset.id}`).set(auth())).status).toBe(404);
    const ours = await h.ctx.db.prisma.event.findFirstOrThrow({
      where: { fingerprint: assetFp, type: 'asset.enriched' },
    });
    expect((await request(h.app).get(`/v1/events/${ours.id}`).set(auth())).status).toBe(200);
  });
});

describe('OpenAPI', () => {
  test('/v1/openapi.json documents every threats, webhooks and events route', async () => {
    const res = await request(h.app).get('/v1/openapi.json');
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, unknown>>;
    const expected: Array<[string, string]> = [
      ['/v1/threats', 'post'],
      ['/v1/threats', 'get'],
      ['/v1/threats/{threat_id}', 'get'],
      ['/v1/threats/{threat_id}', 'post'],
      ['/v1/events', 'get'],
      ['/v1/events/{event_id}', 'get'],
      ['/v1/webhooks', 'post'],
      ['/v1/webhooks', 'get'],
      ['/v1/webhooks/{webhook_id}', 'get'],
      ['/v1/webhooks/{webhook_id}', 'post'],
      ['/v1/webhooks/{webhook_id}', 'delete'],
      ['/v1/webhooks/{webhook_id}/rotate_secret', 'post'],
      ['/v1/webhooks/{webhook_id}/deliveries', 'get'],
    ];
    for (const [path, method] of expected) expect(paths[path]?.[method]).toBeDefined();
    expect(res.body.components.schemas).toHaveProperty('Threat');
    expect(res.body.components.schemas).toHaveProperty('WebhookEndpoint');
    expect(res.body.components.schemas).toHaveProperty('Event');
  });
});
