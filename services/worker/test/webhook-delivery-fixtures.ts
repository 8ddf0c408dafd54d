// Shared setup of the webhook delivery job suites (webhook-delivery-signing, -failures, -guard, -claims):
// a scratch database and queue with the delivery processor running, scaled retries, and scripted receivers.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'bullmq';
import { EXAMPLE_THREAT } from '@risk/contracts';
import { encryptSecret } from '@risk/common/crypto';
import { enqueueDeliveries, recordEventsWithDeliveries, type NewEvent } from '@risk/common/events';
import { OutboundGuard, allowedHostsFor } from '@risk/common/outbound';
import { createWorkerConnection, JOBS, QueueProducer } from '@risk/common/queue';
import { ID_PREFIXES, newId } from '@risk/db';
import { createTestContext, type TestContext } from '@risk/testing';
import { createWebhookDeliveryProcessor, type DeliveryOutcome } from '../src/jobs/webhook-delivery';

/** A receiver on 127.0.0.1 that answers with scripted statuses and records every request. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}
export async function startReceiver(
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

/** Registers the suite's beforeAll/afterAll (context `label`) and returns what its tests use. */
export function deliverySuite(label: string) {
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
    ctx = await createTestContext(label, { WEBHOOK_RETRY_SCALE: '0.0001', WEBHOOK_TIMEOUT_MS: '2000' });
    producer = new QueueProducer(ctx.redis, 'test-producer');
    workerConnection = createWorkerConnection(ctx.redis, 'test-worker');
    const processor = createWebhookDeliveryProcessor({
      prisma: ctx.db.prisma,
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
    if (enqueue) await enqueueDeliveries({ prisma: ctx.db.prisma, producer }, recorded.deliveries);
    return recorded;
  }

  /** deps for calling deliverWebhook directly (no queue): the retry stays in the outbox */
  const direct = (over: { allowedHosts?: string; timeoutMs?: number } = {}) => ({
    prisma: ctx.db.prisma,
    config: { ...ctx.config, WEBHOOK_TIMEOUT_MS: over.timeoutMs ?? ctx.config.WEBHOOK_TIMEOUT_MS },
    producer: null,
    guard: new OutboundGuard(over.allowedHosts ?? allowedHostsFor(ctx.config, 'webhook')),
  });

  const threatEvent = (title = 'Backdoored model'): NewEvent<'threat.created'> => ({
    type: 'threat.created',
    livemode: false,
    object: { ...EXAMPLE_THREAT, id: newId(ID_PREFIXES.threat), title, livemode: false },
  });

  return {
    get ctx() {
      return ctx;
    },
    outcomes,
    servers,
    secret,
    endpoint,
    emit,
    direct,
    threatEvent,
  };
}
