import { scaledByLoad, type TestContext } from '@risk/testing';
import { Webhook } from 'standardwebhooks';
import { retryDelayMs, RETRY_DELAYS_MS } from '../src/jobs/webhook-delivery';
import { waitFor } from './harness';
import { deliverySuite, startReceiver } from './webhook-delivery-fixtures';

jest.setTimeout(scaledByLoad(30_000));

describe('webhook delivery job', () => {
  const suite = deliverySuite('webhookdelivery-signing');
  const { outcomes, servers, secret, endpoint, emit, threatEvent } = suite;
  let ctx: TestContext;
  beforeAll(() => {
    ctx = suite.ctx;
  });

  it('signs deliveries per Standard Webhooks so the standardwebhooks library verifies them', async () => {
    const receiver = await startReceiver([200]);
    servers.push(receiver.server);
    const ep = await endpoint('org_sign', receiver.url);
    const { event_ids, deliveries } = await emit([{ ...threatEvent(), org_id: 'org_sign' }]);
    expect(deliveries).toHaveLength(1);

    const got = await waitFor('the delivery', async () => receiver.received[0]);
    // what the receiver saw, for the record (docs/webhooks.md shows the same shape)
    process.stdout.write(
      `\nwebhook delivery headers: ${JSON.stringify(
        Object.fromEntries(
          Object.entries(got.headers).filter(
            ([k]) => k.startsWith('webhook-') || k === 'content-type' || k === 'user-agent',
          ),
        ),
      )}\n`,
    );
    expect(got.headers['webhook-id']).toBe(event_ids[0]);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(got.headers['content-type']).toBe('application/json');

    const verified = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as Record<
      string,
      unknown
    >;
    expect(verified).toMatchObject({ id: event_ids[0], object: 'event', type: 'threat.created', livemode: false });
    expect(verified.data).toMatchObject({ object: { object: 'threat', title: 'Backdoored model' } });
    expect(typeof verified.created).toBe('number');
    // a wrong secret or a modified body fails verification
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 8).toString('base64')}`).verify(
        got.body,
        got.headers as Record<string, string>,
      ),
    ).toThrow();
    expect(() =>
      new Webhook(secret).verify(got.body.replace('Backdoored', 'Harmless'), got.headers as Record<string, string>),
    ).toThrow();

    const row = await waitFor('delivered status', async () => {
      const d = await ctx.db.prisma.webhookDelivery.findFirst({
        where: { endpoint_id: ep.id },
        include: { attempts: true },
      });
      return d?.status === 'delivered' ? d : null;
    });
    expect(row.attempt_count).toBe(1);
    // the receiver is on loopback, reached only through OUTBOUND_ALLOWED_HOSTS_WEBHOOK: its reply ('ok') is
    // not stored, so a tenant cannot read an internal service through the deliveries list (docs/security.md)
    expect(row.attempts).toEqual([
      expect.objectContaining({ attempt: 1, status: 'succeeded', response_status: 200, response_body: null }),
    ]);
  });

  it('retries a receiver that fails 3 times and delivers on the 4th attempt with the same webhook-id', async () => {
    const receiver = await startReceiver([500, 503, 429, 200]);
    servers.push(receiver.server);
    const ep = await endpoint('org_retry', receiver.url, ['threat.created']);
    const { event_ids } = await emit([{ ...threatEvent(), org_id: 'org_retry' }]);

    const delivery = await waitFor('delivered after retries', async () => {
      const d = await ctx.db.prisma.webhookDelivery.findFirst({
        where: { endpoint_id: ep.id },
        include: { attempts: { orderBy: { attempt: 'asc' } } },
      });
      return d?.status === 'delivered' ? d : null;
    });
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([event_ids[0]]));
    for (const r of receiver.received)
      expect(() => new Webhook(secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    expect(delivery.attempts.map((a) => [a.attempt, a.status, a.response_status])).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 503],
      [3, 'failed', 429],
      [4, 'succeeded', 200],
    ]);
    // failed attempts keep their status and a latency; the answer of this allow-listed loopback receiver is not
    // kept (a public receiver's first 1 KiB is: guardedRequest's truncation is tested in packages/common)
    expect(delivery.attempts.every((a) => a.response_body === null)).toBe(true);
    expect(delivery.attempts.every((a) => a.latency_ms >= 0)).toBe(true);
    // success clears the endpoint's failure window
    expect((await ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } })).failing_since).toBeNull();
  });

  it('spreads the retry schedule over about a day with up to 10 % jitter', () => {
    const total = RETRY_DELAYS_MS.reduce((s, d) => s + d, 0);
    expect(total).toBeGreaterThanOrEqual(24 * 3600_000);
    expect(total).toBeLessThan(26 * 3600_000);
    expect(retryDelayMs(1, 1, () => 0)).toBe(5000);
    expect(retryDelayMs(1, 1, () => 0.999)).toBeLessThanOrEqual(5500);
    expect(retryDelayMs(RETRY_DELAYS_MS.length + 1, 1)).toBeNull();
    void outcomes;
  });
});
