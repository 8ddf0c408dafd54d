// The worker process warms its analysis threads up before it takes jobs and before its /healthz answers
// (services/worker/src/main.ts, docs/performance.md "A cold worker").
import type { ChildProcess } from 'node:child_process';
import { scaledByLoad } from '@risk/testing';
import { createWorkerHarness, modelCardManifest, waitFor, type WorkerHarness } from './harness';
import { exited, spawnWorker } from './worker-process';

interface LogLine {
  message?: string;
  ok?: boolean;
  threads?: { thread: number; cpu_ms: number }[];
}

describe('worker start-up', () => {
  let h: WorkerHarness;
  let worker: ChildProcess & { output: string[] };
  beforeAll(async () => {
    h = await createWorkerHarness('warm-up-start');
  });
  afterAll(async () => {
    if (worker) {
      const done = exited(worker);
      worker.kill('SIGTERM');
      await done;
    }
    await h.close();
  });

  it(
    'warms every analysis thread up before it reports ready and takes jobs',
    async () => {
      // a job already queued when the worker starts, as when autoscaling starts one on a backlog
      const res = await h.submit({
        fingerprint: 'hf:acme/warm-up-start',
        asset_type: 'model',
        name: 'acme/warm-up-start',
        raw_manifest: modelCardManifest(),
      });
      expect(res.status).toBe(202);
      worker = spawnWorker(h, { ENRICHMENT_WARMUP_MS: '200', ENRICHMENT_THREADS: '2' });
      const lines = () =>
        worker.output
          .join('')
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as LogLine);
      await waitFor(
        'the worker to report ready',
        async () => lines().some((l) => l.message === 'worker ready') || null,
        {
          timeoutMs: scaledByLoad(50_000),
          intervalMs: 100,
        },
      );
      const messages = lines().map((l) => l.message);
      const warmed = messages.indexOf('analysis threads warmed up');
      expect(warmed).toBeGreaterThanOrEqual(0);
      expect(warmed).toBeLessThan(messages.indexOf('worker ready'));
      const report = lines()[warmed]!;
      expect(report.ok).toBe(true);
      expect(report.threads).toHaveLength(2);
      for (const t of report.threads!) expect(t.cpu_ms).toBeGreaterThanOrEqual(200);
      // and then it takes the queued job
      await h.waitForAsset('hf:acme/warm-up-start', (a) => a.enrichment_status === 'enriched', scaledByLoad(20_000));
    },
    scaledByLoad(90_000),
  );
});
