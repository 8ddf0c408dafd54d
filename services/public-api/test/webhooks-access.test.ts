import request from 'supertest';
import { idem, postJson, type Harness } from './harness';
import { webhookSuite, type Receiver } from './webhooks-fixtures';

let h: Harness;
/** test mode: the receiver is plain http on 127.0.0.1, which live mode refuses */
let testKey: string;
let receiver: Receiver;
const auth = (key = testKey) => ({ Authorization: `Bearer ${key}` });
const post = (path: string, body: unknown, key = testKey) => postJson(h, path, body, key);

const suite = webhookSuite('webhooks-access');
beforeAll(() => {
  ({ h, testKey, receiver } = suite);
});

describe('webhook endpoints', () => {
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
});
