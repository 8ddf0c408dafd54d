import { existsSync } from 'node:fs';
import path from 'node:path';
import { JOBS, QueueProducer } from '@risk/common/queue';
import { currentSlowdown } from '@risk/time-budget';
import request from 'supertest';
import { createHarness, postSignal, idem, signalBody, type Harness } from './harness';

// The producer points at a closed port: Redis is "stopped" for this app.
let h: Harness;
beforeAll(async () => {
  h = await createHarness('outbox', { redisUrl: 'redis://127.0.0.1:1' });
});
afterAll(() => h.close());

const RELAY = path.resolve(__dirname, '../../worker/src/outbox-relay.ts');

test('a signal accepted while Redis is down leaves an unprocessed outbox row, and the job is queued once Redis is back', async () => {
  const body = signalBody(h.orgId);
  const started = Date.now();
  const res = await postSignal(h, body);
  expect(res.status).toBe(202);
  expect(res.body.enrichment).toEqual({ status: 'queued', reason: 'new_asset' });
  // fails fast, never waits on Redis: the producer's connect and enqueue are each bounded at 1 s (docs/scaling.md, no offline queue),
  // on a machine measured slower right now by its slowdown (@risk/time-budget), still far from a hang
  expect(Date.now() - started).toBeLessThan(2000 * currentSlowdown());
  const rows = await h.ctx.db.prisma.outboxMessage.findMany({ where: { kind: 'enrichment' } });
  expect(rows).toHaveLength(1);
  expect(rows[0]!.processed_at).toBeNull();
  // the request id travels in the payload, so the worker's log lines for the job name the request
  expect(res.headers['x-request-id']).toMatch(/^req_/);
  expect(rows[0]!.payload).toEqual({
    livemode: true,
    fingerprint: body.fingerprint,
    digest: res.body.content_digest,
    reason: 'new_asset',
    request_id: res.headers['x-request-id'],
  });

  // Redis is back: the worker's relay moves the row to the queue
  const live = new QueueProducer(h.ctx.redis, 'outbox-test');
  try {
    expect(existsSync(RELAY)).toBe(true); // the relay lives in services/worker (outbox-relay.ts)
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { relayOutbox } = require(RELAY) as { relayOutbox: (deps: unknown) => Promise<unknown> };
    await relayOutbox({
      prisma: h.ctx.db.prisma,
      pool: h.ctx.db.pool,
      producer: live,
      logger: h.ctx.logger,
      config: h.ctx.config,
    });
    const job = await live.queue(JOBS.enrichment.queue).getJob(JOBS.enrichment.jobId(rows[0]!.id));
    expect(job?.data).toEqual({
      livemode: true,
      fingerprint: body.fingerprint,
      digest: res.body.content_digest,
      reason: 'new_asset',
      request_id: res.headers['x-request-id'],
    });
    const after = await h.ctx.db.prisma.outboxMessage.findUniqueOrThrow({ where: { id: rows[0]!.id } });
    expect(after.processed_at).not.toBeNull();
  } finally {
    await live.close();
  }
});

test('the same app with Redis up marks the row processed at once', async () => {
  const up = new QueueProducer(h.ctx.redis, 'outbox-up');
  // producers never queue commands offline: until the connection is ready, jobs go through the outbox
  await new Promise<void>((resolve) =>
    up.connection.status === 'ready' ? resolve() : up.connection.once('ready', () => resolve()),
  );
  const app = h.appWith({ producer: up });
  try {
    const body = signalBody(h.orgId);
    const res = await request(app)
      .post('/v1/signals')
      .set('Authorization', `Bearer ${h.key}`)
      .set('Idempotency-Key', idem())
      .send(body);
    expect(res.status).toBe(202);
    const row = await h.ctx.db.prisma.outboxMessage.findFirstOrThrow({
      where: { payload: { path: ['fingerprint'], equals: body.fingerprint as string } },
    });
    expect(row.processed_at).not.toBeNull();
  } finally {
    await up.close();
  }
});
