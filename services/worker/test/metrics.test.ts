import { cpuSlowdown, currentSlowdown } from '@risk/time-budget';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JOBS, QUEUES } from '@risk/common/queue';
import { parsePrometheusText, sampleValue, samplesOf, type Sample } from '@risk/testing';
import request from 'supertest';
import { startWorker, type RunningWorker } from '../src';
import { TEST_BUSY_MARKER } from '../src/analysis/pool';
import { startHealthServer } from '../src/health-server';
import { createWorkerHarness, modelCardManifest, waitFor, type WorkerHarness } from './harness';

// The worker's /metrics on its health port (docs/observability.md): job durations and outcomes,
// enrichment outcomes with analysis_timeout, webhook delivery results, and the on-scrape gauges (queue
// depth, outbox lag, firewall sync states); and the API request id in the worker's log lines.

const METRICS_TOKEN = randomBytes(24).toString('hex');

describe('worker /metrics (real queue, real database)', () => {
  let h: WorkerHarness;
  let worker: RunningWorker;
  let health: Server;
  let base: string;
  let receiver: Server;
  let receiverUrl: string;
  let delivered = 0;

  beforeAll(async () => {
    h = await createWorkerHarness('workermetrics', {
      METRICS_TOKEN,
      // a hostile analysis (TEST_BUSY_MARKER) spins past the deadline and fails with analysis_timeout; 400 ms of the
      // thread's CPU on the reference machine, scaled by this machine's CPU slowdown (@risk/time-budget cpuSlowdown;
      // the deadline counts CPU time, which load does not use up): the benign card's first, cold analysis ran past a
      // bare 400 ms on a loaded runner. The busy loop burns 20 s of CPU, so a job that was not cut at its deadline is
      // told from one that was by wall time too, the bound scaled by the wall-clock slowdown (load included)
      ENRICHMENT_JOB_TIMEOUT_MS: String(Math.round(400 * cpuSlowdown())),
      ENRICHMENT_TEST_BUSY_MS: '20000',
    });
    // no relay: the outbox row planted below stays unrelayed, so its age is the lag
    worker = startWorker(h.deps, { maintenance: false, relay: false });
    health = await startHealthServer(h.deps, worker, { port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(health.address() as AddressInfo).port}`;
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        delivered++;
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await worker.close();
    health.close();
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
    await h.close();
  });

  async function scrape(): Promise<Sample[]> {
    const res = await request(base).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
    expect(res.status).toBe(200);
    return parsePrometheusText(res.text);
  }

  test('the health port serves /metrics only with the token; /healthz stays open', async () => {
    expect((await request(base).get('/metrics')).status).toBe(401);
    expect((await request(base).get('/metrics').set('Authorization', `Bearer ${h.key}`)).status).toBe(401);
    expect((await request(base).get('/healthz')).status).toBe(200);
  });

  test('enrichment jobs: durations, outcomes (enriched, analysis_timeout) and the request id in job logs', async () => {
    const before = await scrape();
    const ok = await h.submit({
      fingerprint: 'hf:acme/metrics-model',
      asset_type: 'model',
      name: 'acme/metrics-model',
      raw_manifest: modelCardManifest(),
    });
    expect(ok.status).toBe(202);
    const hostile = await h.submit({
      fingerprint: 'hf:hostile/metrics',
      asset_type: 'model',
      name: 'hostile/metrics',
      raw_manifest: `${TEST_BUSY_MARKER}\n${modelCardManifest()}`,
    });
    expect(hostile.status).toBe(202);
    await h.waitForAsset('hf:acme/metrics-model', (a) => a.enrichment_status === 'enriched');
    await h.waitForAsset('hf:hostile/metrics', (a) => a.enrichment_status === 'failed');
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels);

    expect(delta('risk_enrichment_outcomes_total', { outcome: 'enriched', reason: '' })).toBe(1);
    expect(delta('risk_enrichment_outcomes_total', { outcome: 'failed', reason: 'analysis_timeout' })).toBe(1);
    const enrichment = { queue: JOBS.enrichment.queue };
    expect(delta('risk_job_duration_seconds_count', { ...enrichment, outcome: 'completed' })).toBe(1);
    expect(delta('risk_job_duration_seconds_count', { ...enrichment, outcome: 'failed' })).toBe(1);
    // the timed-out attempt took at least the deadline, and not the busy loop's 20 s
    const failedSeconds = delta('risk_job_duration_seconds_sum', { ...enrichment, outcome: 'failed' });
    expect(failedSeconds).toBeGreaterThanOrEqual(0.4);
    expect(failedSeconds).toBeLessThan(12 * currentSlowdown());

    // the API's request id travelled in the job data into the worker's log line for the failure
    const requestId = hostile.headers['x-request-id'] as string;
    expect(requestId).toMatch(/^req_/);
    const line = await waitFor('the job-failed log line', () =>
      h.ctx.logLines.find((l) => l.includes('"job failed"') && l.includes(requestId)),
    );
    expect(JSON.parse(line)).toMatchObject({
      message: 'job failed',
      queue: JOBS.enrichment.queue,
      request_id: requestId,
    });
  });

  test('webhook deliveries are counted by result', async () => {
    const testKey = await h.mintTestKey();
    await h.subscribe(receiverUrl, testKey);
    const before = await scrape();
    const fp = 'hf:acme/metrics-webhooks';
    const res = await h.submit(
      { fingerprint: fp, asset_type: 'model', name: 'acme/metrics-webhooks', raw_manifest: modelCardManifest() },
      testKey,
    );
    expect(res.status).toBe(202);
    await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched', undefined, false);
    const rows = await waitFor('every delivery to settle', async () => {
      const all = await h.ctx.db.prisma.webhookDelivery.findMany({ select: { id: true, status: true } });
      return all.length > 0 && all.every((d) => d.status === 'delivered') && all;
    });
    // asset.created (the POST) and asset.enriched (its enrichment job) both reach the delivery job's log
    // lines with the POST's request id (docs/observability.md "Request ids")
    const requestId = res.headers['x-request-id'] as string;
    const deliveredLines = h.ctx.logLines
      .map((l) => JSON.parse(l) as { message?: string; delivery_id?: string; request_id?: string })
      .filter((l) => l.message === 'webhook delivered' && rows.some((r) => r.id === l.delivery_id));
    expect(deliveredLines).toHaveLength(rows.length);
    for (const line of deliveredLines) expect(line.request_id).toBe(requestId);
    const after = await scrape();
    const deliveredDelta =
      sampleValue(after, 'risk_webhook_deliveries_total', { outcome: 'delivered' }) -
      sampleValue(before, 'risk_webhook_deliveries_total', { outcome: 'delivered' });
    expect(deliveredDelta).toBe(rows.length);
    expect(delivered).toBe(rows.length);
    expect(
      sampleValue(after, 'risk_job_duration_seconds_count', {
        queue: JOBS.webhookDelivery.queue,
        outcome: 'completed',
      }),
    ).toBeGreaterThanOrEqual(rows.length);
  });

  test('on-scrape gauges: queue depth per queue and state, outbox lag, firewall sync states', async () => {
    // a job nobody consumes yet: the maintenance queue has no worker
    await h.producer.queue(QUEUES.maintenance).add('probe', {}, { delay: 60_000 });
    const planted = await h.ctx.db.pool.query<{ id: string }>(
      `INSERT INTO outbox (kind, payload, available_at, created) VALUES ('enrichment', '{}', now() - interval '90 seconds', now() - interval '90 seconds') RETURNING id::text AS id`,
    );
    const tenant = await h.ctx.db.prisma.tenant.create({
      data: {
        id: `ten_${randomUUID()}`,
        name: `metrics-${randomUUID()}`,
        admin_email: 'ops@metrics.example',
        org_id: `org_${randomUUID()}`,
      },
    });
    const firewall = await h.ctx.db.prisma.firewall.create({
      data: {
        id: `fw_${randomUUID()}`,
        tenant_id: tenant.id,
        name: 'edge',
        type: 'palo_alto',
        host: 'fw.metrics.example',
        api_token_ciphertext: 'x',
        api_token_last4: 'xxxx',
      },
    });
    const policies = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        h.ctx.db.prisma.urlFilterPolicy.create({ data: { id: `pol_${randomUUID()}`, tenant_id: tenant.id, name } }),
      ),
    );
    await h.ctx.db.prisma.policyAssignment.createMany({
      data: policies.map((p, i) => ({
        id: `pa_${randomUUID()}`,
        tenant_id: tenant.id,
        policy_id: p.id,
        firewall_id: firewall.id,
        sync_status: i === 0 ? 'failed' : 'synced',
        target_version: 1,
      })),
    });
    try {
      const samples = await scrape();
      for (const queue of Object.values(QUEUES))
        for (const state of ['wait', 'active', 'delayed', 'failed'])
          expect(
            samplesOf(samples, 'risk_queue_jobs').filter((s) => s.labels.queue === queue && s.labels.state === state),
          ).toHaveLength(1);
      expect(sampleValue(samples, 'risk_queue_jobs', { queue: QUEUES.maintenance, state: 'delayed' })).toBe(1);
      const lag = sampleValue(samples, 'risk_outbox_lag_seconds');
      expect(lag).toBeGreaterThanOrEqual(90);
      expect(lag).toBeLessThan(600);
      expect(sampleValue(samples, 'risk_firewall_sync_assignments', { status: 'failed' })).toBe(1);
      expect(sampleValue(samples, 'risk_firewall_sync_assignments', { status: 'synced' })).toBe(2);
    } finally {
      await h.ctx.db.pool.query('DELETE FROM outbox WHERE id = $1', [planted.rows[0]!.id]);
    }
    expect(sampleValue(await scrape(), 'risk_outbox_lag_seconds')).toBeLessThan(90);
  });
});
