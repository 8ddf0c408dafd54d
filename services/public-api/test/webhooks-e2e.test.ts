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

const suite = webhookSuite('webhooks-e2e');
beforeAll(() => {
  ({ h, testKey, receiver } = suite);
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
    const deps = deliveryDeps(h);

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
