import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '@risk/common/config';
import { scaledByLoad, type TestContext } from '@risk/testing';
import { currentSlowdown } from '@risk/time-budget';
import { deliverWebhook, RETRY_DELAYS_MS } from '../src/jobs/webhook-delivery';
import { waitFor } from './harness';
import { deliverySuite, startReceiver } from './webhook-delivery-fixtures';

jest.setTimeout(scaledByLoad(30_000));

describe('webhook delivery job', () => {
  const suite = deliverySuite('webhookdelivery-failures');
  const { servers, endpoint, emit, direct, threatEvent } = suite;
  let ctx: TestContext;
  beforeAll(() => {
    ctx = suite.ctx;
  });

  it(
    'disables an endpoint after 24 h (scaled) of consecutive failures and records webhook_endpoint.disabled for its org',
    async () => {
      const receiver = await startReceiver(() => 500);
      servers.push(receiver.server);
      const ep = await endpoint('org_down', receiver.url);
      await emit([{ ...threatEvent(), org_id: 'org_down' }]);

      const disabled = await waitFor(
        'endpoint disabled',
        async () => {
          const e = await ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } });
          return e.status === 'disabled' ? e : null;
        },
        25_000,
      );
      expect(disabled.disabled_reason).toMatch(/24 h/);
      const delivery = await ctx.db.prisma.webhookDelivery.findFirstOrThrow({
        where: { endpoint_id: ep.id },
        include: { attempts: true },
      });
      expect(delivery.status).toBe('failed');
      expect(delivery.attempts.length).toBe(RETRY_DELAYS_MS.length + 1);
      expect(receiver.received.length).toBe(RETRY_DELAYS_MS.length + 1);
      const events = await ctx.db.prisma.event.findMany({
        where: { type: 'webhook_endpoint.disabled', org_id: 'org_down' },
      });
      expect(events).toHaveLength(1);
      expect(events[0]!.data).toMatchObject({ object: { object: 'webhook_endpoint', id: ep.id, status: 'disabled' } });
      // the disabled endpoint got no delivery of its own disabling
      expect(await ctx.db.prisma.webhookDelivery.count({ where: { event_id: events[0]!.id } })).toBe(0);
    },
    scaledByLoad(30_000),
  );

  it('gives up on a receiver that does not answer within WEBHOOK_TIMEOUT_MS and stores the timeout', async () => {
    // accepts the request and never answers
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    servers.push(silent);
    const ep = await endpoint('org_slow', `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hooks`);
    const { deliveries } = await emit([{ ...threatEvent(), org_id: 'org_slow' }], false);
    const started = Date.now();
    const outcome = await deliverWebhook(direct({ timeoutMs: 300 }), {
      delivery_id: deliveries[0]!.delivery_id,
      attempt: 1,
    });
    expect(outcome.outcome).toBe('retry_scheduled');
    expect(Date.now() - started).toBeLessThan(5_000 * currentSlowdown()); // its 300 ms, not the 10 s default
    const attempt = await ctx.db.prisma.webhookDeliveryAttempt.findFirstOrThrow({
      where: { delivery: { endpoint_id: ep.id } },
    });
    expect(attempt).toMatchObject({ status: 'failed', response_status: null });
    expect(attempt.error).toMatch(/^timeout: no complete response within 300 ms/);
    expect(attempt.latency_ms).toBeGreaterThanOrEqual(290);
    // the production default is 10 s
    expect(loadConfig({}).WEBHOOK_TIMEOUT_MS).toBe(10_000);
  });

  it('disables an endpoint at once when it answers 410 Gone', async () => {
    const receiver = await startReceiver([410]);
    servers.push(receiver.server);
    const ep = await endpoint('org_gone', receiver.url);
    const { deliveries } = await emit([{ ...threatEvent(), org_id: 'org_gone' }], false);
    const outcome = await deliverWebhook(direct(), { delivery_id: deliveries[0]!.delivery_id, attempt: 1 });
    expect(outcome).toEqual({ outcome: 'failed', attempt: 1, endpoint_disabled: true });
    const row = await ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } });
    expect(row).toMatchObject({ status: 'disabled', disabled_reason: 'the endpoint answered 410 Gone' });
    const events = await ctx.db.prisma.event.findMany({
      where: { type: 'webhook_endpoint.disabled', org_id: 'org_gone' },
    });
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({
      object: { id: ep.id, status: 'disabled' },
      previous_attributes: { status: 'enabled', disabled_reason: null },
    });
    expect(JSON.stringify(events[0]!.data)).not.toContain('secret');
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const receiver = await startReceiver([302]);
    servers.push(receiver.server);
    await endpoint('org_redirect', receiver.url);
    const { deliveries } = await emit([{ ...threatEvent(), org_id: 'org_redirect' }], false);
    const outcome = await deliverWebhook(direct(), { delivery_id: deliveries[0]!.delivery_id, attempt: 1 });
    expect(outcome.outcome).toBe('retry_scheduled');
    const attempt = await ctx.db.prisma.webhookDeliveryAttempt.findFirstOrThrow({
      where: { delivery_id: deliveries[0]!.delivery_id },
    });
    expect(attempt).toMatchObject({ status: 'failed', response_status: 302, error: 'redirects are not followed' });
  });
});
