import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decryptSecret, OutboundGuard } from '@risk/common';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { deliverWebhook } from '../../worker/src/jobs/webhook-delivery';
import { createHarness, idem, postJson, type Harness } from './harness';

let h: Harness;
/** test mode: the receiver is plain http on 127.0.0.1, which live mode refuses */
let testKey: string;
let receiver: {
  server: Server;
  url: string;
  received: Array<{ headers: IncomingHttpHeaders; body: string }>;
  statuses: number[];
};
const auth = (key = testKey) => ({ Authorization: `Bearer ${key}` });
const post = (path: string, body: unknown, key = testKey) => postJson(h, path, body, key);

beforeAll(async () => {
  h = await createHarness('webhooks');
  testKey = await h.mintKey({ livemode: false });
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const statuses: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statuses.shift() ?? 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, statuses };
});
afterAll(async () => {
  receiver.server.closeAllConnections();
  await new Promise((r) => receiver.server.close(r));
  await h.close();
});

describe('webhook endpoints', () => {
  test('POST /v1/webhooks creates an endpoint (201) and shows its whsec_ secret once', async () => {
    const res = await post('/v1/webhooks', {
      url: receiver.url,
      events: ['threat.created', 'asset.risk_changed'],
      description: 'SOC pipeline',
      metadata: { team: 'soc' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'webhook_endpoint',
      id: expect.stringMatching(/^we_/),
      url: receiver.url,
      events: ['threat.created', 'asset.risk_changed'],
      description: 'SOC pipeline',
      metadata: { team: 'soc' },
      status: 'enabled',
      disabled_reason: null,
      livemode: false,
      created: expect.any(Number),
      updated: expect.any(Number),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
    });
    // 32 random bytes behind the prefix (Standard Webhooks: 24–64)
    expect(Buffer.from(res.body.secret.slice(6), 'base64')).toHaveLength(32);

    const got = await request(h.app).get(`/v1/webhooks/${res.body.id}`).set(auth());
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('secret');
    const { secret: _secret, ...rest } = res.body;
    expect(got.body).toEqual(rest);
    const list = await request(h.app).get('/v1/webhooks').set(auth());
    expect(list.body.data.find((e: { id: string }) => e.id === res.body.id)).not.toHaveProperty('secret');
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret);
    // stored encrypted, never in clear
    const row = await h.ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.secret_ciphertext).not.toContain(res.body.secret.slice(6));
    expect(decryptSecret(row.secret_ciphertext, h.ctx.config.SECRETS_KEY!)).toBe(res.body.secret);
    // and never logged
    expect(h.ctx.logLines.join('\n')).not.toContain(res.body.secret);
  });

  test('["*"] subscribes to every event; event names are checked against the catalogue', async () => {
    const all = await post('/v1/webhooks', { url: receiver.url, events: ['*'] });
    expect(all.status).toBe(201);
    expect(all.body.events).toEqual(['*']);
    const bad = await post('/v1/webhooks', { url: receiver.url, events: ['threat.created', 'threat.deleted'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'events[1]' });
    const none = await post('/v1/webhooks', { url: receiver.url, events: [] });
    expect(none.body.error).toMatchObject({ code: 'parameter_invalid', param: 'events' });
    const missing = await post('/v1/webhooks', { events: ['*'] });
    expect(missing.body.error).toMatchObject({ code: 'missing_required_param', param: 'url' });
    const unknown = await post('/v1/webhooks', { url: receiver.url, events: ['*'], secret: 'mine' });
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'secret' });
  });

  test.each([
    ['a private address', 'https://10.0.0.1/hook'],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['a link-local address', 'https://169.254.10.10/hook'],
    ['a CGNAT address', 'https://100.64.0.1/hook'],
    ['an IPv6 unique-local address', 'https://[fd00::1]/hook'],
    ['a metadata host name', 'https://metadata.google.internal/hook'],
    ['the NAT64 form of the metadata address', 'https://[64:ff9b::a9fe:a9fe]/latest'],
    ['an IPv4-mapped private address', 'https://[::ffff:10.0.0.1]/hook'],
  ])('refuses a URL whose host is %s (400 url_not_allowed, param url)', async (_label, url) => {
    const res = await post('/v1/webhooks', { url, events: ['*'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'url_not_allowed', param: 'url' });
  });

  test('refuses loopback unless OUTBOUND_ALLOWED_HOSTS lists it', async () => {
    const strict = await createHarness('webhooksstrict', { env: { OUTBOUND_ALLOWED_HOSTS: '' } });
    const strictKey = await strict.mintKey({ livemode: false });
    try {
      const res = await request(strict.app)
        .post('/v1/webhooks')
        .set('Authorization', `Bearer ${strictKey}`)
        .set('Idempotency-Key', idem())
        .send({ url: receiver.url, events: ['*'] });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'url_not_allowed', param: 'url' });
      expect(res.body.error.message).toMatch(/loopback/);
      const byName = await request(strict.app)
        .post('/v1/webhooks')
        .set('Authorization', `Bearer ${strictKey}`)
        .set('Idempotency-Key', idem())
        .send({ url: 'http://localhost:9/hook', events: ['*'] });
      expect(byName.body.error).toMatchObject({ code: 'url_not_allowed', param: 'url' });
    } finally {
      await strict.close();
    }
  });

  test('live mode requires https; test mode accepts http; other schemes and credentials are refused', async () => {
    const liveHttp = await post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] }, h.key);
    expect(liveHttp.status).toBe(400);
    expect(liveHttp.body.error).toMatchObject({ code: 'parameter_invalid', param: 'url' });
    expect(liveHttp.body.error.message).toMatch(/https/);
    const liveHttps = await post('/v1/webhooks', { url: 'https://127.0.0.1:9/hook', events: ['*'] }, h.key);
    expect(liveHttps.status).toBe(201);
    expect(liveHttps.body.livemode).toBe(true);
    const testHttp = await post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    expect(testHttp.status).toBe(201);
    for (const url of ['ftp://127.0.0.1/hook', 'https://user:pw@127.0.0.1/hook', 'not a url', '/relative']) {
      const res = await post('/v1/webhooks', { url, events: ['*'] });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'url' });
    }
  });

  test('scope webhooks:write is needed for every webhook route', async () => {
    const key = await h.mintKey({ scopes: ['threats:read', 'threats:write', 'assets:read'], livemode: false });
    const created = (await post('/v1/webhooks', { url: receiver.url, events: ['*'] })).body;
    const calls = [
      request(h.app).get('/v1/webhooks').set(auth(key)),
      request(h.app).get(`/v1/webhooks/${created.id}`).set(auth(key)),
      request(h.app).get(`/v1/webhooks/${created.id}/deliveries`).set(auth(key)),
      request(h.app).delete(`/v1/webhooks/${created.id}`).set(auth(key)),
      request(h.app)
        .post('/v1/webhooks')
        .set(auth(key))
        .set('Idempotency-Key', idem())
        .send({ url: receiver.url, events: ['*'] }),
      request(h.app)
        .post(`/v1/webhooks/${created.id}/rotate_secret`)
        .set(auth(key))
        .set('Idempotency-Key', idem())
        .send({}),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'insufficient_scope' });
    }
  });

  test("another org's endpoint is 404 on every route", async () => {
    const created = (await post('/v1/webhooks', { url: receiver.url, events: ['*'] })).body;
    const other = await h.mintKey({ orgId: 'org_webhooks_other', livemode: false });
    const calls = [
      request(h.app).get(`/v1/webhooks/${created.id}`).set(auth(other)),
      request(h.app).get(`/v1/webhooks/${created.id}/deliveries`).set(auth(other)),
      request(h.app).delete(`/v1/webhooks/${created.id}`).set(auth(other)),
      request(h.app)
        .post(`/v1/webhooks/${created.id}`)
        .set(auth(other))
        .set('Idempotency-Key', idem())
        .send({ description: 'x' }),
      request(h.app)
        .post(`/v1/webhooks/${created.id}/rotate_secret`)
        .set(auth(other))
        .set('Idempotency-Key', idem())
        .send({}),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'resource_missing' });
    }
    const list = await request(h.app).get('/v1/webhooks').set(auth(other));
    expect(list.body.data).toEqual([]);
  });

  test("endpoints are per mode: the other mode's key gets 404 and does not list them", async () => {
    const live = (await post('/v1/webhooks', { url: 'https://127.0.0.1:9/live', events: ['*'] }, h.key)).body;
    const test = (await post('/v1/webhooks', { url: receiver.url, events: ['*'] })).body;
    for (const [id, key] of [
      [live.id, testKey],
      [test.id, h.key],
    ] as const) {
      expect((await request(h.app).get(`/v1/webhooks/${id}`).set(auth(key))).status).toBe(404);
      expect((await post(`/v1/webhooks/${id}`, { url: 'https://127.0.0.1:9/taken' }, key)).status).toBe(404);
      expect((await post(`/v1/webhooks/${id}/rotate_secret`, {}, key)).status).toBe(404);
      expect((await request(h.app).delete(`/v1/webhooks/${id}`).set(auth(key))).status).toBe(404);
      const listed = await request(h.app).get('/v1/webhooks?limit=100').set(auth(key));
      expect(listed.body.data.map((e: { id: string }) => e.id)).not.toContain(id);
    }
    expect((await request(h.app).get(`/v1/webhooks/${live.id}`).set(auth(h.key))).body.url).toBe(
      'https://127.0.0.1:9/live',
    );
  });

  test('POST /v1/webhooks/{id} updates url, events, description, metadata and status', async () => {
    const created = (await post('/v1/webhooks', { url: receiver.url, events: ['*'], metadata: { a: '1' } })).body;
    const res = await post(`/v1/webhooks/${created.id}`, {
      url: receiver.url.replace('/hooks', '/v2'),
      events: ['threat.updated'],
      description: 'renamed',
      metadata: null,
      status: 'disabled',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      url: receiver.url.replace('/hooks', '/v2'),
      events: ['threat.updated'],
      description: 'renamed',
      metadata: null,
      status: 'disabled',
      disabled_reason: 'disabled through the API',
    });
    expect(res.body).not.toHaveProperty('secret');
    const enabled = await post(`/v1/webhooks/${created.id}`, { status: 'enabled' });
    expect(enabled.body).toMatchObject({ status: 'enabled', disabled_reason: null });
    const refused = await post(`/v1/webhooks/${created.id}`, { url: 'https://10.1.2.3/x' });
    expect(refused.body.error).toMatchObject({ code: 'url_not_allowed', param: 'url' });
  });

  test('rotate_secret returns a new secret once; deliveries are then signed with it', async () => {
    const created = (await post('/v1/webhooks', { url: receiver.url, events: ['*'] })).body;
    const rotated = await post(`/v1/webhooks/${created.id}/rotate_secret`, {});
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    const row = await h.ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect(decryptSecret(row.secret_ciphertext, h.ctx.config.SECRETS_KEY!)).toBe(rotated.body.secret);
    expect((await request(h.app).get(`/v1/webhooks/${created.id}`).set(auth())).body).not.toHaveProperty('secret');

    // the next delivery verifies with the new secret only
    const org = 'org_webhooks_rotate';
    const key = await h.mintKey({ orgId: org, livemode: false });
    const ep = (await post('/v1/webhooks', { url: receiver.url, events: ['threat.created'] }, key)).body;
    const fresh = (await post(`/v1/webhooks/${ep.id}/rotate_secret`, {}, key)).body.secret as string;
    await post('/v1/threats', { category: 'jailbreak', title: 'rotation check', severity: 'low' }, key);
    const delivery = await h.ctx.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: ep.id } });
    receiver.received.length = 0;
    const deps = {
      db: h.ctx.db.prisma,
      config: h.ctx.config,
      producer: null,
      guard: new OutboundGuard(h.ctx.config.OUTBOUND_ALLOWED_HOSTS),
    };
    expect(await deliverWebhook(deps, { delivery_id: delivery.id, attempt: 1 })).toMatchObject({
      outcome: 'delivered',
    });
    const [got] = receiver.received;
    expect(new Webhook(fresh).verify(got!.body, got!.headers as Record<string, string>)).toMatchObject({
      type: 'threat.created',
    });
    expect(() => new Webhook(ep.secret).verify(got!.body, got!.headers as Record<string, string>)).toThrow();
  });

  test('DELETE /v1/webhooks/{id} removes the endpoint', async () => {
    const created = (await post('/v1/webhooks', { url: receiver.url, events: ['*'] })).body;
    const res = await request(h.app).delete(`/v1/webhooks/${created.id}`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'webhook_endpoint', id: created.id, deleted: true });
    expect((await request(h.app).get(`/v1/webhooks/${created.id}`).set(auth())).status).toBe(404);
    expect((await request(h.app).delete(`/v1/webhooks/${created.id}`).set(auth())).status).toBe(404);
  });

  test('GET /v1/webhooks pages newest first', async () => {
    const fresh = await h.mintKey({ orgId: 'org_webhooks_paging', livemode: false });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await post('/v1/webhooks', { url: receiver.url, events: ['*'] }, fresh)).body.id);
    const p1 = await request(h.app).get('/v1/webhooks?limit=2').set(auth(fresh));
    expect(p1.body).toMatchObject({ object: 'list', url: '/v1/webhooks', has_more: true, next_cursor: ids[1] });
    expect(p1.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    const p2 = await request(h.app).get(`/v1/webhooks?limit=2&starting_after=${p1.body.next_cursor}`).set(auth(fresh));
    expect(p2.body.data.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
    const back = await request(h.app).get(`/v1/webhooks?limit=2&ending_before=${ids[0]}`).set(auth(fresh));
    expect(back.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
  });
});

describe('webhook deliveries end to end', () => {
  test('a threat created through the API reaches a receiver on 127.0.0.1, signed; attempts show at /deliveries', async () => {
    const org = 'org_webhooks_e2e';
    const key = await h.mintKey({ orgId: org, livemode: false });
    const endpoint = (await post('/v1/webhooks', { url: receiver.url, events: ['threat.created'] }, key)).body;
    const threat = (
      await post(
        '/v1/threats',
        { category: 'tool_poisoning', title: 'poisoned tool description', severity: 'high' },
        key,
      )
    ).body;

    const deliveries = await h.ctx.db.prisma.webhookDelivery.findMany({ where: { endpoint_id: endpoint.id } });
    expect(deliveries).toHaveLength(1);
    const deps = {
      db: h.ctx.db.prisma,
      config: h.ctx.config,
      producer: null,
      guard: new OutboundGuard(h.ctx.config.OUTBOUND_ALLOWED_HOSTS),
    };

    // the receiver fails once (500), then accepts (204)
    receiver.received.length = 0;
    receiver.statuses.push(500, 204);
    expect(await deliverWebhook(deps, { delivery_id: deliveries[0]!.id, attempt: 1 })).toMatchObject({
      outcome: 'retry_scheduled',
    });
    expect(await deliverWebhook(deps, { delivery_id: deliveries[0]!.id, attempt: 2 })).toMatchObject({
      outcome: 'delivered',
      status: 204,
    });

    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received;
    expect(first!.headers['webhook-id']).toBe(second!.headers['webhook-id']);
    const event = new Webhook(endpoint.secret).verify(
      second!.body,
      second!.headers as Record<string, string>,
    ) as Record<string, unknown>;
    expect(event).toMatchObject({
      id: first!.headers['webhook-id'],
      object: 'event',
      type: 'threat.created',
      livemode: false,
      data: { object: threat },
    });
    // the same event is readable at GET /v1/events/{id}
    const fromApi = await request(h.app).get(`/v1/events/${event.id}`).set(auth(key));
    expect(fromApi.body).toEqual(event);

    const listed = await request(h.app).get(`/v1/webhooks/${endpoint.id}/deliveries`).set(auth(key));
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({
      object: 'list',
      url: `/v1/webhooks/${endpoint.id}/deliveries`,
      has_more: false,
    });
    expect(listed.body.data).toEqual([
      {
        object: 'webhook_delivery',
        id: deliveries[0]!.id,
        event_id: event.id,
        event_type: 'threat.created',
        status: 'delivered',
        attempt_count: 2,
        last_response_status: 204,
        next_attempt_at: null,
        delivered_at: expect.any(Number),
        created: expect.any(Number),
        attempts: [
          expect.objectContaining({
            object: 'webhook_delivery_attempt',
            attempt: 1,
            status: 'failed',
            response_status: 500,
            latency_ms: expect.any(Number),
          }),
          expect.objectContaining({ attempt: 2, status: 'succeeded', response_status: 204, error: null }),
        ],
      },
    ]);
    const delivered = await request(h.app).get(`/v1/webhooks/${endpoint.id}/deliveries?status=failed`).set(auth(key));
    expect(delivered.body.data).toEqual([]);
  });
});
