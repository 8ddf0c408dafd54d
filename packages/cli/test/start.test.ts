import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { mintApiKey } from '@risk/common/api-keys';
import { JOBS, QueueProducer } from '@risk/common/queue';
import { SCOPES } from '@risk/contracts';
import {
  createTestContext,
  freePort,
  httpOk as ok,
  plain,
  runStart,
  scaledByLoad,
  stackEnv,
  type StackPorts,
  type StartRun as Run,
  startSecrets as secrets,
  type TestContext,
  waitFor,
  waitForStack,
} from '@risk/testing';

// `pnpm start` as a process: the one-line failures when a dependency is down, and a clean stop that
// leaves no service behind. Secrets are passed in, so the tests never write the repo's .risk-local.json.
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((n) => n > 0);
  } catch {
    return []; // ps exits 1 when there are none
  }
}

function servicePids(pid: number): number[] {
  return childPids(pid).filter((child) => {
    try {
      return /services\/(public-api|admin-api|worker)\/src\/main\.ts/.test(
        execFileSync('ps', ['-o', 'args=', '-p', String(child)], { encoding: 'utf8' }),
      );
    } catch {
      return false;
    }
  });
}

describe('pnpm start', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext('start');
  });
  afterAll(async () => ctx.close());

  it('names Redis, its URL and how to start it in one line, and exits 1 without a stack trace', async () => {
    const redisUrl = `redis://127.0.0.1:${await freePort()}`;
    const run = runStart({ ...secrets(), DATABASE_URL: ctx.databaseUrl, REDIS_URL: redisUrl });
    expect((await run.exited).code).toBe(1);
    const lines = plain(run.output()).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Redis is not reachable at ${redisUrl}`);
    expect(lines[0]).toMatch(/Start it .*redis-server/);
    expect(run.output()).not.toMatch(/^\s+at /m);
  });

  it('names Postgres and its address (password hidden) when it is down', async () => {
    const port = await freePort();
    const run = runStart({
      ...secrets(),
      DATABASE_URL: `postgresql://postgres:hunter2@127.0.0.1:${port}/risk`,
      REDIS_URL: ctx.redis.url,
    });
    expect((await run.exited).code).toBe(1);
    const out = plain(run.output()).trim();
    expect(out.split('\n')).toHaveLength(1);
    expect(out).toContain(`Postgres is not reachable at 127.0.0.1:${port}`);
    expect(out).not.toContain('hunter2');
    expect(out).not.toMatch(/^\s+at /m);
  });

  it('requires ADMIN_API_TOKEN and SECRETS_KEY under NODE_ENV=production, naming both', async () => {
    const run = runStart({ NODE_ENV: 'production', DATABASE_URL: ctx.databaseUrl, REDIS_URL: ctx.redis.url });
    expect((await run.exited).code).toBe(1);
    expect(run.output()).toContain('ADMIN_API_TOKEN: is required when NODE_ENV=production');
    expect(run.output()).toContain('SECRETS_KEY: is required when NODE_ENV=production');
  });

  it(
    'runs the three services, stops them all on SIGTERM, starts again, and they exit if start is killed',
    async () => {
      const { env, ports } = await stackEnv(ctx);
      const up = async (run: Run) => {
        await waitForStack(run, ports);
        const pids = childPids(run.child.pid!);
        // the output says which service is missing and why (docs/reliability.md "Test ports")
        if (pids.length < 3) throw new Error(`${pids.length} child processes of pnpm start:\n${run.output()}`);
        return pids;
      };

      // 1st run: SIGTERM stops everything and exits 0
      const first = runStart(env);
      const firstPids = await up(first);
      first.child.kill('SIGTERM');
      expect(await first.exited).toEqual({ code: 0, signal: null });
      expect(plain(first.output())).toContain('all services stopped');
      expect(firstPids.filter(alive)).toEqual([]);

      // 2nd run on the same database (migrations already applied); start itself is SIGKILLed
      const second = runStart(env);
      const secondPids = await up(second);
      second.child.kill('SIGKILL');
      await second.exited;
      await waitFor('the orphaned services to stop', () => secondPids.every((pid) => !alive(pid)), {
        timeoutMs: 30_000,
        intervalMs: 200,
      });
    },
    scaledByLoad(120_000),
  );

  // docs/security.md, "Analysis under a budget": stopping is bounded whatever a service is doing
  describe('stops every service within 15 s of SIGTERM', () => {
    const waitUp = async (run: Run, ports: StackPorts) => {
      await waitForStack(run, ports);
      // the three service processes (not a helper start may run meanwhile, e.g. tsx's esbuild)
      const pids = servicePids(run.child.pid!);
      expect(pids).toHaveLength(3);
      return pids;
    };

    it(
      'kills a service that ignores SIGTERM after the grace period, names it, and only then says stopped',
      async () => {
        const { env, ports } = await stackEnv(ctx, {
          NODE_OPTIONS: `--require ${path.join(__dirname, 'fixtures', 'worker-stuck-on-sigterm.cjs')}`,
        });
        const run = runStart(env);
        const pids = await waitUp(run, ports);
        const t0 = Date.now();
        run.child.kill('SIGTERM');
        const exit = await run.exited;
        const elapsed = Date.now() - t0;
        expect(exit.code).toBe(1);
        const out = plain(run.output());
        expect(out).toContain('worker did not stop in time; killing it (SIGKILL)');
        const graceS = Number(/all services stopped; killed after (\d+) s: worker/.exec(out)?.[1]);
        // the stuck worker was given its whole grace before the kill (a lower bound holds whatever the load)
        expect(elapsed).toBeGreaterThanOrEqual(graceS * 1000);
        expect(out).not.toMatch(/(public-api|admin-api) did not stop in time/);
        // "stopped" is printed last, when no service process is left
        expect(out.trim().split('\n').at(-1)).toContain('all services stopped');
        expect(pids.filter(alive)).toEqual([]);
      },
      scaledByLoad(120_000),
    );

    it(
      'stops everything while a hostile analysis is running in the worker',
      async () => {
        // the analysis would spin for a minute (test hook, see services/worker/src/analysis/pool.ts) and
        // its own deadline is far away: only the shutdown path can end it
        const { env, ports } = await stackEnv(ctx, {
          ENRICHMENT_JOB_TIMEOUT_MS: '120000',
          ENRICHMENT_TEST_BUSY_MS: '120000',
        });
        const run = runStart(env);
        const pids = await waitUp(run, ports);
        const orgId = 'org_start_hostile';
        const { key } = await mintApiKey(ctx.db.prisma, { org_id: orgId, scopes: [...SCOPES], livemode: true });
        const fingerprint = `hf:hostile/start-${randomBytes(4).toString('hex')}`;
        const res = await fetch(`http://127.0.0.1:${ports.pub}/v1/signals`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${key}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': randomUUID(),
          },
          body: JSON.stringify({
            org_id: orgId,
            fingerprint,
            asset_type: 'model',
            name: 'hostile/start',
            observed_at: Math.floor(Date.now() / 1000) - 5,
            // the model card (`license`, newlines, two words) plus the busy-loop marker
            raw_manifest: `#enrichment-test-busy\nlicense${'\n'.repeat(5000)}apache mit`,
          }),
        });
        expect(res.status).toBe(202);
        const producer = new QueueProducer(ctx.redis, 'test-start');
        try {
          expect(await producer.ping(3000)).toBe(true);
          const queue = producer.queue(JOBS.enrichment.queue);
          await waitFor('the hostile job to be active', async () => (await queue.getActiveCount()) === 1, {
            timeoutMs: 30_000,
            intervalMs: 100,
          });
        } finally {
          await producer.close();
        }
        // the worker's main thread still answers while the analysis spins in its thread
        expect(await ok(`http://127.0.0.1:${ports.wrk}/healthz`)).toBe(true);

        run.child.kill('SIGTERM');
        await run.exited;
        // every service stopped on its own, before the grace ran out: nothing had to be killed
        expect(plain(run.output())).toContain('all services stopped');
        expect(plain(run.output())).not.toMatch(/did not stop in time|killed after/);
        expect(pids.filter(alive)).toEqual([]);
      },
      scaledByLoad(120_000),
    );
  });
});
