import type { ChildProcess } from 'node:child_process';
import { JOBS } from '@risk/common/queue';
import { createWorkerHarness, modelCardManifest, waitFor, type WorkerHarness } from './harness';
import { exited, spawnWorker } from './worker-process';
import { scaledByLoad } from '@risk/testing';

describe('crash safety of the worker process', () => {
  let h: WorkerHarness;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    h = await createWorkerHarness('crash');
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await h.close();
  });

  it(
    'a worker killed with SIGKILL mid-job loses nothing: another worker enriches the asset exactly once',
    async () => {
      const fp = 'hf:crash/model';
      // the first worker spends 4 s inside each job, so it is surely mid-job when killed
      const first = spawnWorker(h, { ENRICHMENT_TEST_DELAY_MS: '4000' });
      children.push(first);
      await waitFor('first worker ready', async () => first.output.join('').includes('worker ready'), {
        timeoutMs: 30_000,
        intervalMs: 50,
      });

      const res = await h.submit({
        fingerprint: fp,
        asset_type: 'model',
        name: 'crash/model',
        raw_manifest: modelCardManifest(),
      });
      expect(res.status).toBe(202);
      const queue = h.producer.queue(JOBS.enrichment.queue);
      await waitFor('job active in the first worker', async () => (await queue.getActiveCount()) === 1, {
        timeoutMs: 30_000,
        intervalMs: 50,
      });

      first.kill('SIGKILL');
      expect((await exited(first)).signal).toBe('SIGKILL');
      const mid = await h.ctx.db.prisma.asset.findUniqueOrThrow({
        where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
      });
      expect(mid.enrichment_status).toBe('pending');

      const second = spawnWorker(h, {});
      children.push(second);
      // the second worker's cold start (tsx) plus the stalled-job check: 30 s was too close on a loaded 2-core runner
      await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched', 75_000);

      // give a possible duplicate run time to show up, then check "exactly once"
      await new Promise((r) => setTimeout(r, scaledByLoad(1500)));
      expect(await h.ctx.db.prisma.aiBom.count({ where: { fingerprint: fp } })).toBe(1);
      expect(await h.ctx.db.prisma.event.count({ where: { fingerprint: fp, type: 'asset.enriched' } })).toBe(1);
      const findings = await h.ctx.db.prisma.finding.findMany({
        where: { fingerprint: fp },
        select: { enrichment_digest: true },
      });
      expect(findings.length).toBeGreaterThan(0);
      expect(new Set(findings.map((f) => f.enrichment_digest)).size).toBe(1);

      // SIGTERM stops it gracefully
      second.kill('SIGTERM');
      const { code } = await exited(second);
      expect(code).toBe(0);
      expect(second.output.join('')).toContain('stopped');
    },
    scaledByLoad(150_000),
  );
});
