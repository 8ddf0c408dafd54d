import { decryptSecret } from '@risk/common/crypto';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { deliverWebhook } from '../../worker/src/jobs/webhook-delivery';
import { postJson, type Harness } from './harness';
import { deliveryDeps, webhookSuite, type Receiver } from './webhooks-fixtures';

let h: Harness;
/** test mode: the receiver is plain http on 127.0.0.1, which live mode refuses */
let testKey: string;
let receiver: Receiver;
const auth = (key = testKey) => ({ Authorization: `Bearer ${key}` });
const post = (path: string, body: unknown, key = testKey) => postJson(h, path, body, key);

const suite = webhookSuite('webhooks-update');
beforeAll(() => {
  ({ h, testKey, receiver } = suite);
});

describe('webhook endpoints', () => {
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
    const deps = deliveryDeps(h);
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
