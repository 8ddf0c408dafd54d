import { randomUUID } from 'node:crypto';
import { mintApiKey } from '@risk/common/api-keys';
import { SCOPES } from '@risk/contracts';
import { WebhookReceiver } from './more-processes';
import { createStack, waitFor, type Stack } from './processes';

// Case e (docs/reliability.md "Fault suite"): the webhook receiver is down (connection refused) for the first
// attempts, then up but answering 503, then healthy. Every event is delivered once it is back, each exactly
// once, and every attempt of one event carried the same `webhook-id` (the event id). The retry schedule is
// shortened by WEBHOOK_RETRY_SCALE (docs/webhooks.md): attempts 2–5 come after ~5 ms, 0.3, 1.8 and 7.2 s, and
// an endpoint failing for 86 s (24 h scaled) would be disabled.
describe('fault: a webhook receiver down for several attempts', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let testKey: string;
  beforeAll(async () => {
    stack = await createStack('fault-webhook');
    receiver = await WebhookReceiver.create();
    // http receivers are accepted in test mode only (docs/webhooks.md)
    ({ key: testKey } = await mintApiKey(stack.ctx.db.prisma, {
      org_id: stack.orgId,
      scopes: [...SCOPES],
      livemode: false,
    }));
  });
  afterAll(async () => {
    await receiver?.down();
    await stack?.close();
  });

  const call = async (method: string, pathname: string, body: unknown) => {
    const res = await fetch(`${stack.apiUrl}${pathname}`, {
      method,
      headers: {
        authorization: `Bearer ${testKey}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const attempts = async () => {
    const { rows } = await stack.ctx.db.pool.query<{ min: number; n: number; delivered: number }>(
      `SELECT coalesce(min(attempt_count), 0)::int AS min, count(*)::int AS n,
              count(*) FILTER (WHERE status = 'delivered')::int AS delivered FROM webhook_deliveries`,
    );
    return rows[0]!;
  };

  it('delivers every event once the receiver is back, with the same webhook-id on every attempt', async () => {
    await stack.startApi();
    stack.startWorker({ WEBHOOK_RETRY_SCALE: '0.001', WEBHOOK_TIMEOUT_MS: '2000' });
    const endpoint = await call('POST', '/v1/webhooks', { url: receiver.url, events: ['asset.created'] });
    expect(endpoint.status).toBe(201);

    // 30 assets → 30 asset.created events while nothing listens on the receiver's port
    const sent = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call('POST', '/v1/signals', {
          fingerprint: `npm:hook-${i}@1.0.0`,
          asset_type: 'package',
          name: `hook-${i}`,
          org_id: stack.orgId,
          observed_at: Math.floor(Date.now() / 1000) - 5,
        }),
      ),
    );
    expect(sent.map((s) => s.status)).toEqual(sent.map(() => 202));
    await waitFor('30 deliveries to exist', async () => (await attempts()).n === 30, {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    await waitFor('two refused attempts each', async () => (await attempts()).min >= 2, {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect(receiver.received).toEqual([]);

    // up, but failing: a later attempt of each delivery answered 503
    receiver.failing = true;
    await receiver.up();
    const refusedByReceiver = () => new Set(receiver.received.filter((r) => r.answered === 503).map((r) => r.eventId));
    await waitFor('a 503 for every event', async () => refusedByReceiver().size === 30, {
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    receiver.failing = false;
    await waitFor('every delivery delivered', async () => (await attempts()).delivered === 30, {
      timeoutMs: 60_000,
      intervalMs: 200,
    });

    const { rows: events } = await stack.ctx.db.pool.query<{ id: string }>(
      `SELECT id FROM events WHERE type = 'asset.created'`,
    );
    expect(events).toHaveLength(30);
    // every event reached the receiver, each accepted exactly once
    const accepted = receiver.received.filter((r) => r.answered < 300);
    expect(accepted.map((r) => r.eventId).sort()).toEqual(events.map((e) => e.id).sort());
    // every attempt (the failing ones too) named its event in webhook-id
    expect(receiver.received.filter((r) => r.webhookId !== r.eventId)).toEqual([]);
    expect([...refusedByReceiver()].sort()).toEqual(events.map((e) => e.id).sort());
    // nothing left to retry, no endpoint disabled
    const { rows: left } = await stack.ctx.db.pool.query(
      `SELECT (SELECT count(*)::int FROM webhook_deliveries WHERE status <> 'delivered') AS open,
              (SELECT count(*)::int FROM webhook_endpoints WHERE status <> 'enabled') AS disabled`,
    );
    expect(left[0]).toEqual({ open: 0, disabled: 0 });
  });
});
