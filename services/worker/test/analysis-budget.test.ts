import type { ChildProcess } from 'node:child_process';
import { JOBS } from '@risk/common/queue';
import { currentSlowdown } from '@risk/time-budget';
import { TEST_BUSY_MARKER } from '../src/analysis/pool';
import { createWorkerHarness, waitFor, type WorkerHarness } from './harness';
import { exited, freePort, probeHealth, spawnWorker, timeBenignEnrichment } from './worker-process';
import { scaledByLoad } from '@risk/testing';

// docs/security.md, "Analysis under a budget": a hostile manifest sent through the public API to the
// real worker process. Its analysis outlives the deadline; the thread running it is terminated, the asset
// fails with `analysis_timeout` after one attempt, /healthz answers within a second all along, and a
// benign signal sent afterwards is enriched promptly.

/**
 * The model card: `license`, then newlines, then two words. Super-linear in the engine's
 * licence scan before the ReDoS rewrite (a few hundred newlines took seconds, thousands take hours);
 * TEST_BUSY_MARKER keeps the analysis slow (ENRICHMENT_TEST_BUSY_MS) once the patterns are linear.
 */
const hostileCard = (newlines: number) => `${TEST_BUSY_MARKER}\nlicense${'\n'.repeat(newlines)}apache mit`;

describe('analysis under a budget (real worker process, real Postgres and Redis)', () => {
  let h: WorkerHarness;
  let worker: ChildProcess & { output: string[] };
  let healthUrl: string;

  beforeAll(async () => {
    h = await createWorkerHarness('budget');
    const port = await freePort();
    healthUrl = `http://127.0.0.1:${port}/healthz`;
    worker = spawnWorker(h, {
      WORKER_HEALTH_PORT: String(port),
      ENRICHMENT_THREADS: '2',
      // longer than the job lock (WORKER_LOCK_DURATION_MS 2000 in spawnWorker): a job whose lock the main
      // thread failed to renew would be taken as stalled and run again, not fail once
      ENRICHMENT_JOB_TIMEOUT_MS: '2500',
      ENRICHMENT_TEST_BUSY_MS: '60000',
    });
    await waitFor('worker ready', async () => worker.output.join('').includes('worker ready'), {
      timeoutMs: 30_000,
      intervalMs: 50,
    });
  }, scaledByLoad(60_000));
  afterAll(async () => {
    if (worker.exitCode === null && worker.signalCode === null) {
      worker.kill('SIGTERM');
      await exited(worker);
    }
    await h.close();
  }, scaledByLoad(30_000));

  it(
    'fails hostile analyses with analysis_timeout, once, while /healthz answers within 1 s; a benign signal is then enriched promptly',
    async () => {
      const probe = probeHealth(healthUrl);
      // more hostile jobs than threads: every thread is taken by a hostile analysis at some point
      const hostile = ['hf:hostile/a', 'hf:hostile/b', 'hf:hostile/c'];
      for (const [i, fingerprint] of hostile.entries()) {
        const res = await h.submit({
          fingerprint,
          asset_type: 'model',
          name: fingerprint.slice(3),
          raw_manifest: hostileCard(2000 + i),
        });
        expect(res.status).toBe(202);
      }
      for (const fingerprint of hostile) {
        await h.waitForAsset(fingerprint, (a) => a.enrichment_status === 'failed', 30_000);
        const asset = await h.ctx.db.prisma.asset.findUniqueOrThrow({
          where: { livemode_fingerprint: { livemode: true, fingerprint } },
        });
        expect(asset.enrichment_error).toBe('analysis_timeout');
      }
      // not retried: each job failed on its first attempt and stays failed
      const failed = await h.producer.queue(JOBS.enrichment.queue).getFailed();
      expect(failed.filter((j) => hostile.includes(j.data.fingerprint)).map((j) => j.attemptsMade)).toEqual([1, 1, 1]);
      expect(failed.every((j) => j.failedReason === 'analysis_timeout')).toBe(true);
      const event = await h.ctx.db.prisma.event.findFirst({
        where: { type: 'asset.enrichment_failed', fingerprint: hostile[0] },
      });
      expect(event?.data).toMatchObject({ object: { enrichment_error: 'analysis_timeout' } });

      // a benign signal afterwards: the terminated threads were replaced and it is enriched promptly
      const benignMs = await timeBenignEnrichment(h, 'hf:acme/benign-after-hostile');

      const latencies = await probe.stop();
      const slowest = [...latencies]
        .sort((a, b) => b - a)
        .slice(0, 5)
        .map(Math.round);
      console.log(`/healthz slowest answers (ms): ${slowest.join(', ')} of ${latencies.length}`);
      expect(latencies.length).toBeGreaterThan(10);
      // the bounds are the reference machine's, scaled by this machine's measured slowdown (@risk/time-budget)
      const slowdown = currentSlowdown();
      expect(Math.max(...latencies)).toBeLessThan(1000 * slowdown);
      expect(benignMs).toBeLessThan(5000 * slowdown);
      // the figures for the closing note
      console.log(
        `analysis budget: /healthz max ${Math.round(Math.max(...latencies))} ms over ${latencies.length} probes; benign enriched in ${Math.round(benignMs)} ms`,
      );
    },
    scaledByLoad(90_000),
  );
});
