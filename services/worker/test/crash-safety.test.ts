import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { JOBS } from '@risk/common';
import { createWorkerHarness, modelCardManifest, waitFor, type WorkerHarness } from './harness';

const MAIN = path.join(__dirname, '..', 'src', 'main.ts');

/** Runs the real worker process (`node --import tsx src/main.ts`) against the test's database and queues. */
function spawnWorker(h: WorkerHarness, env: Record<string, string>): ChildProcess & { output: string[] } {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: path.join(__dirname, '..'),
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: h.ctx.databaseUrl,
      REDIS_URL: h.ctx.redis.url,
      REDIS_PREFIX: h.ctx.redis.prefix,
      SECRETS_KEY: h.ctx.config.SECRETS_KEY!,
      WORKER_HEALTH_PORT: String(20000 + Math.floor(Math.random() * 20000)),
      WORKER_LOCK_DURATION_MS: '2000',
      WORKER_STALLED_INTERVAL_MS: '1000',
      MAINTENANCE_INTERVAL_MS: '3600000',
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

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

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

  it('a worker killed with SIGKILL mid-job loses nothing: another worker enriches the asset exactly once', async () => {
    const fp = 'hf:crash/model';
    // the first worker spends 4 s inside each job, so it is surely mid-job when killed
    const first = spawnWorker(h, { ENRICHMENT_TEST_DELAY_MS: '4000' });
    children.push(first);
    await waitFor('first worker ready', async () => first.output.join('').includes('worker ready'), 30_000, 50);

    const res = await h.submit({
      fingerprint: fp,
      asset_type: 'model',
      name: 'crash/model',
      raw_manifest: modelCardManifest(),
    });
    expect(res.status).toBe(202);
    const queue = h.producer.queue(JOBS.enrichment.queue);
    await waitFor('job active in the first worker', async () => (await queue.getActiveCount()) === 1, 30_000, 50);

    first.kill('SIGKILL');
    expect((await exited(first)).signal).toBe('SIGKILL');
    const mid = await h.ctx.db.prisma.asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
    });
    expect(mid.enrichment_status).toBe('pending');

    const second = spawnWorker(h, {});
    children.push(second);
    await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched', 30_000);

    // give a possible duplicate run time to show up, then check "exactly once"
    await new Promise((r) => setTimeout(r, 1500));
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
  }, 60_000);
});
