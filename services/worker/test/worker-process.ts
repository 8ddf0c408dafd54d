import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { modelCardManifest, type WorkerHarness } from './harness';
import { serviceProcessEnv } from '@risk/testing';

const MAIN = path.join(__dirname, '..', 'src', 'main.ts');

/** Runs the real worker process (`node --import tsx src/main.ts`) against the test's database and queues. */
export function spawnWorker(
  h: WorkerHarness,
  env: Record<string, string>,
  /** another service's main.ts (the tracing test runs the public API's too) */
  main = MAIN,
): ChildProcess & { output: string[] } {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    cwd: path.join(main, '..', '..'),
    env: {
      ...serviceProcessEnv(h.ctx),
      WORKER_HEALTH_PORT: String(20000 + Math.floor(Math.random() * 20000)),
      WORKER_LOCK_DURATION_MS: '2000',
      WORKER_STALLED_INTERVAL_MS: '1000',
      MAINTENANCE_INTERVAL_MS: '3600000',
      ADVISORY_FEEDS_AUTOLOAD: 'false', // seconds of CPU per scratch database (docs/advisories.md "Feeds")
      // the warm-up runs (main.ts), briefly: a second of CPU per thread in every spawned worker is not what these tests are about
      ENRICHMENT_WARMUP_MS: '100',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as ChildProcess & { output: string[] };
  child.output = [];
  child.stdout!.on('data', (d: Buffer) => child.output.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => child.output.push(d.toString()));
  return child;
}

export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Polls the worker's /healthz from a process of its own (shared with the public API's tests). */
export { probeHealth } from '@risk/testing';

/** A port free on 127.0.0.1 right now (for the worker's /healthz). */
export { freePort } from '@risk/testing';

/** Sends a benign model card and returns how many ms it took to be enriched (the "still enriched promptly" check). */
export async function timeBenignEnrichment(h: WorkerHarness, fingerprint: string): Promise<number> {
  const t0 = performance.now();
  const res = await h.submit({
    fingerprint,
    asset_type: 'model',
    name: fingerprint.slice(3),
    raw_manifest: modelCardManifest(),
  });
  expect(res.status).toBe(202);
  await h.waitForAsset(fingerprint, (a) => a.enrichment_status === 'enriched', 10_000);
  return performance.now() - t0;
}
