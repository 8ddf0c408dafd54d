import { scaledByLoad, type TestContext } from '@risk/testing';
import { deliverWebhook } from '../src/jobs/webhook-delivery';
import { deliverySuite, startReceiver } from './webhook-delivery-fixtures';

jest.setTimeout(scaledByLoad(30_000));

describe('webhook delivery job', () => {
  const suite = deliverySuite('webhookdelivery-guard');
  const { servers, endpoint, emit, direct, threatEvent } = suite;
  let ctx: TestContext;
  beforeAll(() => {
    ctx = suite.ctx;
  });

  it('re-checks the outbound guard at delivery time and never connects to a refused address', async () => {
    const receiver = await startReceiver([200]);
    servers.push(receiver.server);
    const ep = await endpoint('org_guard', receiver.url);
    const { deliveries } = await emit([{ ...threatEvent(), org_id: 'org_guard' }], false);
    // the allow list was emptied after the endpoint was registered (or the name now resolves elsewhere)
    const outcome = await deliverWebhook(direct({ allowedHosts: '' }), {
      delivery_id: deliveries[0]!.delivery_id,
      attempt: 1,
    });
    expect(outcome).toMatchObject({ outcome: 'retry_scheduled', attempt: 1 });
    expect(receiver.received).toHaveLength(0);
    const attempt = await ctx.db.prisma.webhookDeliveryAttempt.findFirstOrThrow({
      where: { delivery: { endpoint_id: ep.id } },
    });
    expect(attempt).toMatchObject({ status: 'failed', response_status: null });
    expect(attempt.error).toMatch(/^refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1, which is a loopback address/);
    // the retry is in the outbox, due later
    const outbox = await ctx.db.prisma.outboxMessage.findFirstOrThrow({
      where: {
        kind: 'webhook_delivery',
        payload: { path: ['delivery_id'], equals: deliveries[0]!.delivery_id },
        processed_at: null,
      },
      orderBy: { id: 'desc' },
    });
    expect(outbox.payload).toEqual({ delivery_id: deliveries[0]!.delivery_id, attempt: 2 });
  });

  it('checks the address a host name resolves to at delivery time (a name cannot smuggle in loopback)', async () => {
    const receiver = await startReceiver([200]);
    servers.push(receiver.server);
    // registered while the allow list named 127.0.0.1; the name itself was never allow-listed
    const ep = await endpoint('org_dns', receiver.url.replace('127.0.0.1', 'localhost'));
    const { deliveries } = await emit([{ ...threatEvent(), org_id: 'org_dns' }], false);
    const outcome = await deliverWebhook(direct({ allowedHosts: '' }), {
      delivery_id: deliveries[0]!.delivery_id,
      attempt: 1,
    });
    expect(outcome.outcome).toBe('retry_scheduled');
    expect(receiver.received).toHaveLength(0);
    const attempt = await ctx.db.prisma.webhookDeliveryAttempt.findFirstOrThrow({
      where: { delivery: { endpoint_id: ep.id } },
    });
    expect(attempt.error).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address/);
  });
});
