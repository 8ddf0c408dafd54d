import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'bullmq';
import {
  createWorkerConnection,
  encryptSecret,
  enqueueDeliveries,
  ID_PREFIXES,
  JOBS,
  loadConfig,
  newId,
  OutboundGuard,
  QueueProducer,
  recordEventsWithDeliveries,
  type NewEvent,
} from '@risk/common';
import { createTestContext, type TestContext } from '@risk/testing';
import { Webhook } from 'standardwebhooks';
import {
  createWebhookDeliveryProcessor,
  deliverWebhook,
  retryDelayMs,
  RETRY_DELAYS_MS,
  type DeliveryOutcome,
} from '../src/jobs/webhook-delivery';
import { waitFor } from './harness';

/** A receiver on 127.0.0.1 that answers with scripted statuses and records every request. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}
async function startReceiver(
  statuses: number[] | ((n: number) => number),
): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const n = received.length;
      const status = typeof statuses === 'function' ? statuses(n) : (statuses[n - 1] ?? 200);
      res
        .writeHead(status, { 'content-type': 'text/plain' })
        .end(status < 300 ? 'ok' : `nope ${n} ${'x'.repeat(3000)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hooks`, received };
}

jest.setTimeout(30_000);

describe('webhook delivery job', () => {
  let ctx: TestContext;
  let producer: QueueProducer;
  let worker: Worker;
  let workerConnection: ReturnType<typeof createWorkerConnection>;
  const outcomes: DeliveryOutcome[] = [];
  const servers: Server[] = [];
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

  beforeAll(async () => {
    // 24 h of retries become ~9 s: the schedule and the disable window are scaled alike (smaller scales
    // drown the schedule in queue and HTTP latency, which the wall-clock disable window counts)
    ctx = await createTestContext('webhookdelivery', { WEBHOOK_RETRY_SCALE: '0.0001', WEBHOOK_TIMEOUT_MS: '2000' });
    producer = new QueueProducer(ctx.redis, 'test-producer');
    workerConnection = createWorkerConnection(ctx.redis, 'test-worker');
    const processor = createWebhookDeliveryProcessor({
      db: ctx.db.prisma,
      config: ctx.config,
      producer,
      logger: ctx.logger,
    });
    worker = new Worker(
      JOBS.webhookDelivery.queue,
      async (job) => {
        const outcome = await processor(job);
        outcomes.push(outcome);
        return outcome;
      },
      { connection: workerConnection, prefix: ctx.redis.prefix, concurrency: 4 },
    );
    worker.on('error', () => undefined);
  });

  afterAll(async () => {
    await worker.close();
    workerConnection.disconnect();
    await producer.close();
    for (const s of servers) s.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    await ctx.close();
  });

  async function endpoint(org_id: string, url: string, events: string[] = ['*'], status = 'enabled') {
    return ctx.db.prisma.webhookEndpoint.create({
      data: {
        id: newId(ID_PREFIXES.webhookEndpoint),
        org_id,
        livemode: false,
        url,
        events,
        status,
        secret_ciphertext: encryptSecret(secret, ctx.config.SECRETS_KEY!),
      },
    });
  }

  async function emit(events: NewEvent[], enqueue = true) {
    const recorded = await ctx.db.prisma.$transaction((tx) => recordEventsWithDeliveries(tx, events));
    if (enqueue) await enqueueDeliveries(ctx.db.prisma, producer, recorded.deliveries);
    return recorded;
  }

  /** deps for calling deliverWebhook directly (no queue): the retry stays in the outbox */
  const direct = (over: { allowedHosts?: string; timeoutMs?: number } = {}) => ({
    db: ctx.db.prisma,
    config: { ...ctx.config, WEBHOOK_TIMEOUT_MS: over.timeoutMs ?? ctx.config.WEBHOOK_TIMEOUT_MS },
    producer: null,
    guard: new OutboundGuard(over.allowedHosts ?? ctx.config.OUTBOUND_ALLOWED_HOSTS),
  });

  const threatEvent = (title = 'Backdoored model'): NewEvent => ({
    type: 'threat.created',
    livemode: false,
    object: { object: 'threat', id: newId(ID_PREFIXES.threat), title },
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
    expect(row.attempts).toEqual([
      expect.objectContaining({ attempt: 1, status: 'succeeded', response_status: 200, response_body: 'ok' }),
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
    // failed attempts keep a truncated copy of the receiver's answer and a latency
    expect(delivery.attempts[0]!.response_body!.length).toBeLessThanOrEqual(1024);
    expect(delivery.attempts[0]!.response_body).toMatch(/^nope 1 x+/);
    expect(delivery.attempts.every((a) => a.latency_ms >= 0)).toBe(true);
    // success clears the endpoint's failure window
    expect((await ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } })).failing_since).toBeNull();
  });

  it('disables an endpoint after 24 h (scaled) of consecutive failures and records webhook_endpoint.disabled for its org', async () => {
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
  }, 30_000);

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
    expect(Date.now() - started).toBeLessThan(5_000);
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

  it('performs each attempt once even when its job is delivered twice', async () => {
    const receiver = await startReceiver([200]);
    servers.push(receiver.server);
    await endpoint('org_dupe', receiver.url);
    const { deliveries } = await emit([{ ...threatEvent(), org_id: 'org_dupe' }], false);
    const deps = direct();
    const job = { delivery_id: deliveries[0]!.delivery_id, attempt: 1 };
    const [a, b] = await Promise.all([deliverWebhook(deps, job), deliverWebhook(deps, job)]);
    expect([a.outcome, b.outcome].sort()).toEqual(['delivered', 'skipped']);
    expect(receiver.received).toHaveLength(1);
  });

  it('releases its claim when the attempt breaks before it is stored, so the job retry can perform it', async () => {
    const receiver = await startReceiver([200]);
    servers.push(receiver.server);
    const ep = await endpoint('org_broken', receiver.url);
    const { deliveries } = await emit([{ ...threatEvent(), org_id: 'org_broken' }], false);
    const deps = direct();
    const job = { delivery_id: deliveries[0]!.delivery_id, attempt: 1 };
    const good = ep.secret_ciphertext;
    await ctx.db.prisma.webhookEndpoint.update({ where: { id: ep.id }, data: { secret_ciphertext: 'v1.broken.x.y' } });
    await expect(deliverWebhook(deps, job)).rejects.toThrow();
    expect(await ctx.db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: job.delivery_id } })).toMatchObject({
      attempt_count: 0,
      status: 'pending',
    });
    await ctx.db.prisma.webhookEndpoint.update({ where: { id: ep.id }, data: { secret_ciphertext: good } });
    expect(await deliverWebhook(deps, job)).toMatchObject({ outcome: 'delivered', attempt: 1 });
    expect(receiver.received).toHaveLength(1);
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
