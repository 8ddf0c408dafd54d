import { invariantViolations } from '@risk/common/observability';
import { JOBS, QueueProducer } from '@risk/common/queue';
import request from 'supertest';
import { checkInvariants, startWorker } from '../src';
import { createWorkerHarness, type WorkerHarness } from './harness';

// Each fallen-through state is written straight into the database (as a lost job or a crash between two
// writes would leave it); the invariants pass must report it, leave it alone without repair, and repair it
// with (docs/reliability.md "Invariants").
describe('invariants pass', () => {
  let h: WorkerHarness;

  beforeAll(async () => {
    h = await createWorkerHarness('invariants');
  });
  afterAll(async () => h.close());

  const gauge = async (kind: string) =>
    (await invariantViolations.get()).values.find((v) => v.labels.kind === kind)?.value;

  it('an asset whose latest digest is neither enriched nor queued is reported, then re-queued and enriched', async () => {
    // accepted while Redis was unreachable, so no job; then its outbox row marked processed as if the job
    // had been added and lost (the defect this test guards against), and a minute passed
    const down = new QueueProducer({ url: 'redis://127.0.0.1:1', prefix: h.ctx.redis.prefix }, 'down');
    const { createApp } = await import('@risk/public-api');
    const app = createApp({ ...h.deps, producer: down });
    const fingerprint = 'npm:fell-through@1.0.0';
    const res = await request(app)
      .post('/v1/signals')
      .set('Authorization', `Bearer ${h.key}`)
      .set('Idempotency-Key', crypto.randomUUID())
      .send({ fingerprint, asset_type: 'package', org_id: h.orgId, observed_at: Math.floor(Date.now() / 1000) });
    expect(res.status).toBe(202);
    await down.close();
    const pool = h.ctx.db.pool;
    await pool.query(`UPDATE outbox SET processed_at = now() WHERE kind = 'enrichment' AND processed_at IS NULL`);
    await pool.query(`UPDATE assets SET updated = now() - interval '2 minutes' WHERE fingerprint = $1`, [fingerprint]);

    const report = await checkInvariants(h.deps, { repair: false });
    expect(report).toMatchObject({ ran: true, repaired: false, assets_unqueued: [`live:${fingerprint}`] });
    expect(await gauge('asset_unqueued')).toBe(1);
    const waiting = `SELECT count(*)::int AS n FROM outbox WHERE processed_at IS NULL AND payload->>'fingerprint' = $1`;
    expect((await pool.query(waiting, [fingerprint])).rows[0].n).toBe(0); // report-only wrote nothing

    const repaired = await checkInvariants(h.deps, { repair: true });
    expect(repaired.assets_unqueued).toEqual([`live:${fingerprint}`]);
    expect((await pool.query(waiting, [fingerprint])).rows[0].n).toBe(1);
    // queued now: a second pass finds nothing
    expect((await checkInvariants(h.deps, { repair: false })).assets_unqueued).toEqual([]);
    expect(await gauge('asset_unqueued')).toBe(0);

    const worker = startWorker(h.deps, { maintenance: false });
    try {
      await h.waitForAsset(
        fingerprint,
        (a) => a.enrichment_status === 'enriched' && a.enriched_digest === res.body.content_digest,
      );
    } finally {
      await worker.close();
    }
  });

  it('an asset whose job is still in the queue is not reported', async () => {
    const fingerprint = 'npm:still-queued@1.0.0';
    const res = await h.submit({ fingerprint, asset_type: 'package', name: 'still-queued' });
    expect(res.status).toBe(202);
    // the fast path added the job (no worker runs); the row may still wait for the relay: mark it relayed
    const { rows } = await h.ctx.db.pool.query<{ id: string }>(
      `UPDATE outbox SET processed_at = now() WHERE payload->>'fingerprint' = $1 RETURNING id::text AS id`,
      [fingerprint],
    );
    const job = await h.producer.queue(JOBS.enrichment.queue).getJob(JOBS.enrichment.jobId(rows[0]!.id));
    expect(job).toBeDefined();
    await h.ctx.db.pool.query(`UPDATE assets SET updated = now() - interval '2 minutes' WHERE fingerprint = $1`, [
      fingerprint,
    ]);
    expect((await checkInvariants(h.deps, { repair: false })).assets_unqueued).not.toContain(`live:${fingerprint}`);
    // and once that job is gone (removed, as BullMQ's retention would), it is
    await job!.remove();
    expect((await checkInvariants(h.deps, { repair: false })).assets_unqueued).toContain(`live:${fingerprint}`);
  });

  it('an assignment whose target version is neither synced nor queued gets its sync job back', async () => {
    const pool = h.ctx.db.pool;
    await pool.query(
      `INSERT INTO tenants (id, name, admin_email, org_id) VALUES ('ten_inv', 'inv', 'a@b.c', 'org_inv')`,
    );
    await pool.query(
      `INSERT INTO firewalls (id, tenant_id, name, type, host, api_token_ciphertext, api_token_last4)
       VALUES ('fw_inv', 'ten_inv', 'fw', 'panos', '127.0.0.1', 'x', 'abcd')`,
    );
    await pool.query(
      `INSERT INTO url_filter_policies (id, tenant_id, name, version) VALUES ('pol_inv', 'ten_inv', 'p', 3)`,
    );
    await pool.query(
      `INSERT INTO policy_assignments (id, tenant_id, policy_id, firewall_id, sync_status, target_version, synced_version, updated)
       VALUES ('asg_inv', 'ten_inv', 'pol_inv', 'fw_inv', 'pending', 3, 2, now() - interval '2 minutes')`,
    );
    // an earlier attempt at the same version finished (BullMQ keeps a failed job 7 days under its id, so a
    // plain re-add would be dropped): its hash carries finishedOn as a kept failed job's does
    const queue = h.producer.queue(JOBS.firewallSync.queue);
    const jobId = JOBS.firewallSync.jobId({ assignment_id: 'asg_inv', action: 'apply', version: 3 });
    await queue.add('sync', { assignment_id: 'asg_inv', action: 'apply', version: 3 }, { jobId });
    await h.producer.connection.hset(
      `${h.ctx.redis.prefix}:${JOBS.firewallSync.queue}:${jobId}`,
      'finishedOn',
      Date.now(),
    );

    const report = await checkInvariants(h.deps, { repair: false });
    expect(report.assignments_unqueued).toEqual(['asg_inv']);
    expect(await gauge('assignment_unqueued')).toBe(1);

    await checkInvariants(h.deps, { repair: true });
    const job = await queue.getJob(jobId);
    expect(job?.data).toEqual({ assignment_id: 'asg_inv', action: 'apply', version: 3 });
    expect(job?.finishedOn).toBeUndefined();
    expect(['waiting', 'prioritized']).toContain(await job!.getState());
    expect((await checkInvariants(h.deps, { repair: false })).assignments_unqueued).toEqual([]);
    await queue.obliterate({ force: true });
  });

  it('reports outbox rows waiting over a minute and dead-lettered rows with their ids', async () => {
    const pool = h.ctx.db.pool;
    await pool.query(
      `INSERT INTO outbox (kind, payload, created) VALUES ('webhook_delivery', '{"delivery_id":"whd_x"}', now() - interval '5 minutes')`,
    );
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO outbox (kind, payload, dead_lettered_at, last_error) VALUES ('nonsense', '{}', now(), 'unknown kind')
       RETURNING id::text AS id`,
    );
    const report = await checkInvariants(h.deps, { repair: false });
    expect(report.outbox_stuck).toBe(1);
    expect(report.outbox_oldest_seconds).toBeGreaterThanOrEqual(299);
    expect(report.outbox_dead_lettered).toBe(1);
    expect(report.outbox_dead_lettered_ids).toEqual([rows[0]!.id]);
    expect(await gauge('outbox_stuck')).toBe(1);
    expect(await gauge('outbox_dead_lettered')).toBe(1);
  });

  it('runs on one replica at a time: a pass while another holds the lock does nothing', async () => {
    const client = await h.ctx.db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [0x72697369]);
      const report = await checkInvariants(h.deps, { repair: true });
      expect(report.ran).toBe(false);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
    expect((await checkInvariants(h.deps, { repair: false })).ran).toBe(true);
  });
});
