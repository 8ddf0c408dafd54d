import { JOBS, QueueProducer } from '@risk/common/queue';
import { Queue } from 'bullmq';
import { relayOutbox, runMaintenance, startWorker, type RunningWorker } from '../src';
import { createWorkerHarness, modelCardManifest, type WorkerHarness } from './harness';
import { scaledByLoad } from '@risk/testing';

describe('worker reliability', () => {
  let h: WorkerHarness;

  beforeAll(async () => {
    h = await createWorkerHarness('reliab');
  });
  afterAll(async () => h.close());

  it('a signal accepted while Redis is unreachable is enqueued by the outbox relay once Redis is back', async () => {
    // the API's producer points at a closed port: the request still succeeds and the outbox keeps the job
    const downProducer = new QueueProducer({ url: 'redis://127.0.0.1:1', prefix: h.ctx.redis.prefix }, 'down');
    const { createApp } = await import('@risk/public-api');
    const app = createApp({
      config: h.ctx.config,
      prisma: h.ctx.db.prisma,
      pool: h.ctx.db.pool,
      producer: downProducer,
      logger: h.ctx.logger,
    });
    const request = (await import('supertest')).default;
    const res = await request(app)
      .post('/v1/signals')
      .set('Authorization', `Bearer ${h.key}`)
      .set('Idempotency-Key', crypto.randomUUID())
      .send({
        fingerprint: 'npm:outbox-demo@1.0.0',
        asset_type: 'package',
        org_id: h.orgId,
        observed_at: Math.floor(Date.now() / 1000),
        name: 'outbox-demo',
      });
    expect(res.status).toBe(202);
    await downProducer.close();
    const pending = await h.ctx.db.prisma.outboxMessage.findMany({ where: { processed_at: null, kind: 'enrichment' } });
    expect(pending).toHaveLength(1);

    // Redis is back (the worker's producer is live): one relay pass enqueues the job and marks the row
    const result = await relayOutbox(h.deps);
    expect(result).toMatchObject({ claimed: 1, enqueued: 1, failed: 0 });
    const row = await h.ctx.db.prisma.outboxMessage.findUniqueOrThrow({ where: { id: pending[0]!.id } });
    expect(row.processed_at).not.toBeNull();
    const job = await h.producer.queue(JOBS.enrichment.queue).getJob(JOBS.enrichment.jobId(pending[0]!.id));
    expect(job?.data).toMatchObject({ fingerprint: 'npm:outbox-demo@1.0.0', digest: res.body.content_digest });

    // and a worker then enriches it
    const worker = startWorker(h.deps, { maintenance: false, relay: false });
    try {
      await h.waitForAsset('npm:outbox-demo@1.0.0', (a) => a.enrichment_status === 'enriched');
    } finally {
      await worker.close();
    }
  });

  it('the relay leaves rows for later when Redis refuses, recording the error', async () => {
    await h.ctx.db.prisma.outboxMessage.create({
      data: { kind: 'enrichment', payload: { fingerprint: 'x', digest: 'y' } },
    });
    const down = new QueueProducer({ url: 'redis://127.0.0.1:1', prefix: h.ctx.redis.prefix }, 'down2');
    try {
      const result = await relayOutbox({ ...h.deps, producer: down });
      expect(result.failed).toBe(1);
      const row = await h.ctx.db.prisma.outboxMessage.findFirstOrThrow({ where: { processed_at: null } });
      expect(row.attempts).toBe(1);
      expect(row.last_error).toBeTruthy();
    } finally {
      await down.close();
    }
    expect((await relayOutbox(h.deps)).enqueued).toBe(1);
  });

  it('a row the relay cannot parse is dead-lettered with its error and the rest of its group is enqueued', async () => {
    const rows = await h.ctx.db.prisma.outboxMessage.createManyAndReturn({
      data: [
        { kind: 'enrichment', payload: { fingerprint: 'hf:dl/good-1', digest: 'd1' } },
        { kind: 'enrichment', payload: { fingerprint: 'hf:dl/no-digest' } },
        { kind: 'enrichment', payload: { fingerprint: 'hf:dl/good-2', digest: 'd2' } },
        { kind: 'no_such_kind', payload: {} },
      ],
      select: { id: true },
    });
    const first = await relayOutbox(h.deps);
    expect(first).toEqual({ claimed: 4, enqueued: 2, failed: 0, dead_lettered: 2 });
    const after = await h.ctx.db.prisma.outboxMessage.findMany({
      where: { id: { in: rows.map((r) => r.id) } },
      orderBy: { id: 'asc' },
    });
    expect(after.map((r) => [r.processed_at !== null, r.dead_lettered_at !== null])).toEqual([
      [true, false],
      [false, true],
      [true, false],
      [false, true],
    ]);
    expect(after[1]!.last_error).toMatch(/payload refused.*digest/s);
    expect(after[3]!.last_error).toBe("unknown outbox kind 'no_such_kind'");
    const queue = h.producer.queue(JOBS.enrichment.queue);
    for (const i of [0, 2]) expect(await queue.getJob(JOBS.enrichment.jobId(after[i]!.id))).toBeDefined();
    // dead letters are skipped from then on: the next pass has nothing to do
    expect(await relayOutbox(h.deps)).toEqual({ claimed: 0, enqueued: 0, failed: 0, dead_lettered: 0 });
    for (const i of [0, 2]) await (await queue.getJob(JOBS.enrichment.jobId(after[i]!.id)))?.remove();
  });

  it('two relays running at once never enqueue the same row twice (SKIP LOCKED)', async () => {
    await h.ctx.db.prisma.outboxMessage.createMany({
      data: Array.from({ length: 40 }, (_, i) => ({
        kind: 'enrichment',
        payload: { fingerprint: `fp-${i}`, digest: 'd' },
      })),
    });
    const [a, b] = await Promise.all([relayOutbox(h.deps, 25), relayOutbox(h.deps, 25)]);
    const again = await relayOutbox(h.deps, 25);
    expect(a.enqueued + b.enqueued + again.enqueued).toBe(40);
    expect(await h.ctx.db.prisma.outboxMessage.count({ where: { processed_at: null, dead_lettered_at: null } })).toBe(
      0,
    );
  });

  it('enrichment jobs are deduplicated per outbox row (fast path and relay) and retry with exponential backoff', async () => {
    const queue = h.producer.queue(JOBS.enrichment.queue);
    const job = { livemode: true, fingerprint: 'hf:dedup/model', digest: 'sha256:dedup' };
    await h.producer.enqueueEnrichment([{ outboxId: 99_001n, job }], 5000);
    await h.producer.enqueueEnrichment([{ outboxId: '99001', job: { ...job } }], 5000);
    const waiting = (await queue.getJobs(['waiting', 'prioritized', 'delayed'])).filter(
      (j) => j.data.fingerprint === job.fingerprint,
    );
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.opts).toMatchObject({ attempts: 5, backoff: { type: 'exponential', delay: 2000 } });
    await waiting[0]!.remove();
  });

  it(
    'a second re-enrichment of the same digest and reason runs although BullMQ still keeps the first job',
    async () => {
      // Two TTL passes on one day write two outbox rows with the same payload (reason ttl:<day>). BullMQ keeps
      // the first, completed job for an hour; an id derived from the payload made the second add a no-op
      // while its row was marked processed, and the asset stayed stale for good.
      const fingerprint = 'hf:ttl-twice/model';
      expect(
        (
          await h.submit({
            fingerprint,
            asset_type: 'model',
            name: 'ttl-twice/model',
            raw_manifest: modelCardManifest(),
          })
        ).status,
      ).toBe(202);
      const worker = startWorker(h.deps, { maintenance: false, relay: false });
      try {
        await h.waitForAsset(fingerprint, (a) => a.enrichment_status === 'enriched');
        const day = new Date(Date.now() + (h.deps.config.ENRICHMENT_TTL_DAYS + 2) * 86_400_000);
        day.setUTCHours(1, 0, 0, 0);
        for (const hour of [1, 2]) {
          await runMaintenance(h.deps, new Date(day.getTime() + (hour - 1) * 3_600_000));
          const stale = await h.ctx.db.prisma.asset.findUniqueOrThrow({
            where: { livemode_fingerprint: { livemode: true, fingerprint } },
          });
          expect(stale.enrichment_status).toBe('stale');
          const queued = await h.ctx.db.prisma.outboxMessage.findMany({
            where: { processed_at: null, payload: { path: ['fingerprint'], equals: fingerprint } },
          });
          expect(queued.map((r) => r.payload)).toEqual([
            {
              livemode: true,
              fingerprint,
              digest: stale.latest_digest,
              reason: `ttl:${day.toISOString().slice(0, 10)}`,
            },
          ]);
          await relayOutbox(h.deps);
          await h.waitForAsset(fingerprint, (a) => a.enrichment_status === 'enriched');
        }
      } finally {
        await worker.close();
      }
    },
    scaledByLoad(45_000),
  );

  it('ENRICHMENT_CONCURRENCY sets how many enrichment jobs one worker runs at once', async () => {
    const slow = { ...h.deps, config: { ...h.deps.config, ENRICHMENT_CONCURRENCY: 3, ENRICHMENT_TEST_DELAY_MS: 1500 } };
    const worker = startWorker(slow, { maintenance: false, relay: false });
    const queue = h.producer.queue(JOBS.enrichment.queue);
    try {
      expect(worker.workers[0]!.concurrency).toBe(3);
      for (let i = 0; i < 4; i++)
        expect(
          (
            await h.submit({
              fingerprint: `hf:conc/m${i}`,
              asset_type: 'model',
              name: `conc/m${i}`,
              raw_manifest: modelCardManifest(),
            })
          ).status,
        ).toBe(202);
      let maxActive = 0;
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline && maxActive < 3) {
        maxActive = Math.max(maxActive, await queue.getActiveCount());
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(maxActive).toBe(3);
      for (let i = 0; i < 4; i++) await h.waitForAsset(`hf:conc/m${i}`, (a) => a.enrichment_status === 'enriched');
    } finally {
      await worker.close();
    }
  });

  it('a job that exhausts its attempts marks the asset failed with the reason and records an event', async () => {
    const fp = 'hf:broken/model';
    const res = await h.submit({
      fingerprint: fp,
      asset_type: 'model',
      name: 'broken/model',
      raw_manifest: modelCardManifest(),
    });
    expect(res.status).toBe(202);
    // make every write for this asset fail inside Postgres, the way a real database error would
    await h.ctx.db.pool.query(`
      CREATE OR REPLACE FUNCTION fail_broken_findings() RETURNS trigger AS $$
      BEGIN IF NEW.fingerprint = '${fp}' THEN RAISE EXCEPTION 'simulated write failure'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql;
      CREATE TRIGGER fail_broken BEFORE INSERT ON findings FOR EACH ROW EXECUTE FUNCTION fail_broken_findings();`);
    const queue = new Queue(JOBS.enrichment.queue, { connection: h.producer.connection, prefix: h.ctx.redis.prefix });
    // the API's job (5 attempts, seconds of backoff) is replaced by one with quick retries for the test
    await queue.obliterate({ force: true });
    await queue.add(
      'enrich',
      { fingerprint: fp, digest: res.body.content_digest },
      { attempts: 2, backoff: { type: 'fixed', delay: 50 } },
    );
    const worker: RunningWorker = startWorker(h.deps, { maintenance: false, relay: false });
    try {
      await h.waitForAsset(fp, (a) => a.enrichment_status === 'failed');
    } finally {
      await worker.close();
      await h.ctx.db.pool.query('DROP TRIGGER fail_broken ON findings');
    }
    const asset = await h.ctx.db.prisma.asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
    });
    expect(asset.enrichment_error).toMatch(/simulated write failure/);
    expect(await h.ctx.db.prisma.aiBom.count({ where: { fingerprint: fp } })).toBe(0);
    const event = await h.ctx.db.prisma.event.findFirstOrThrow({
      where: { fingerprint: fp, type: 'asset.enrichment_failed' },
    });
    expect(JSON.stringify(event.data)).toMatch(/simulated write failure/);

    // a new signal for a failed asset is queued again (docs/public-api.md "Enrichment triggers")
    const again = await h.submit({
      fingerprint: fp,
      asset_type: 'model',
      name: 'broken/model',
      raw_manifest: modelCardManifest(),
    });
    expect(again.body.enrichment).toEqual({ status: 'queued', reason: 'enrichment_failed' });
  });

  it('maintenance marks assets past the TTL stale and queues them, and purges old keys, events and outbox rows', async () => {
    const prisma = h.ctx.db.prisma;
    const old = new Date(Date.now() - 8 * 86_400_000);
    const enriched = await prisma.asset.findFirstOrThrow({ where: { enrichment_status: 'enriched' } });
    await prisma.asset.update({
      where: { livemode_fingerprint: { livemode: true, fingerprint: enriched.fingerprint } },
      data: { enriched_at: old },
    });
    await prisma.idempotencyKey.create({
      data: {
        org_id: 'o',
        livemode: true,
        method: 'POST',
        path: '/v1/signals',
        key: crypto.randomUUID(),
        request_hash: 'h',
        status: 'completed',
        original_request_id: 'req_x',
        created: new Date(Date.now() - 25 * 3600_000),
      },
    });
    await prisma.event.create({
      data: {
        id: 'evt_old',
        type: 'threat.created',
        livemode: true,
        data: {},
        // retention drops whole months: a month goes once it ended 30 days ago, so 62 days back is always gone
        created: new Date(Date.now() - 70 * 86_400_000),
      },
    });
    await prisma.outboxMessage.create({
      data: { kind: 'enrichment', payload: {}, processed_at: new Date(Date.now() - 2 * 86_400_000) },
    });

    const result = await runMaintenance(h.deps);
    expect(result.staled).toBe(1);
    expect(result.idempotency_keys_purged).toBe(1);
    expect(result.events_purged).toBe(1);
    // by dropping the old event's month (docs/scaling.md "Monthly partitions for signals and events"), and with every
    // row in a month partition of its own
    const month = new Date(Date.now() - 70 * 86_400_000);
    expect(result.partitions.dropped).toContain(
      `events_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, '0')}`,
    );
    expect(result.default_partition_rows).toEqual({ signals: 0, events: 0 });
    expect(result.outbox_purged).toBeGreaterThanOrEqual(1);
    const after = await prisma.asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: enriched.fingerprint } },
    });
    expect(after.enrichment_status).toBe('stale');
    const queued = await prisma.outboxMessage.findFirstOrThrow({
      where: { processed_at: null, kind: 'enrichment' },
      orderBy: { id: 'desc' },
    });
    expect(queued.payload).toMatchObject({
      fingerprint: enriched.fingerprint,
      digest: enriched.latest_digest,
      reason: expect.stringMatching(/^ttl:/),
    });

    // the re-enrichment runs and brings the asset back to enriched
    await relayOutbox(h.deps);
    const worker = startWorker(h.deps, { maintenance: false, relay: false });
    try {
      await h.waitForAsset(enriched.fingerprint, (a) => a.enrichment_status === 'enriched');
    } finally {
      await worker.close();
    }
    const fresh = await prisma.asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: enriched.fingerprint } },
    });
    expect(fresh.enriched_at!.getTime()).toBeGreaterThan(old.getTime());
  });
});
