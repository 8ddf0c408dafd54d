import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { createTestContext, waitFor, type TestContext } from '@risk/testing';

// `pnpm start` as a process: the one-line failures when a dependency is down, and a clean stop that
// leaves no service behind. Secrets are passed in, so the tests never write the repo's .risk-local.json.
const ROOT = path.resolve(__dirname, '..', '..', '..');
const START = path.join(ROOT, 'packages', 'cli', 'src', 'start.ts');

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function runStart(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', START], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => out, exited };
}

const secrets = () => ({
  ADMIN_API_TOKEN: randomBytes(24).toString('hex'),
  SECRETS_KEY: randomBytes(32).toString('hex'),
});
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

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

const ok = (url: string) =>
  fetch(url).then(
    (r) => r.ok,
    () => false,
  );

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

  it('runs the three services, stops them all on SIGTERM, starts again, and they exit if start is killed', async () => {
    const [pub, adm, wrk] = [await freePort(), await freePort(), await freePort()];
    const env = {
      ...secrets(),
      DATABASE_URL: ctx.databaseUrl,
      REDIS_URL: ctx.redis.url,
      REDIS_PREFIX: ctx.redis.prefix,
      PUBLIC_API_PORT: String(pub),
      ADMIN_API_PORT: String(adm),
      WORKER_HEALTH_PORT: String(wrk),
      LOG_LEVEL: 'warn',
    };
    const up = async (run: Run) => {
      await waitFor(
        'the three services',
        async () => {
          if (run.child.exitCode !== null) throw new Error(`start exited early:\n${run.output()}`);
          return (
            (await ok(`http://127.0.0.1:${pub}/readyz`)) &&
            (await ok(`http://127.0.0.1:${adm}/`)) &&
            (await ok(`http://127.0.0.1:${wrk}/healthz`))
          );
        },
        60_000,
        200,
      );
      const pids = childPids(run.child.pid!);
      expect(pids.length).toBeGreaterThanOrEqual(3);
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
    await waitFor('the orphaned services to stop', () => secondPids.every((pid) => !alive(pid)), 30_000, 200);
  }, 120_000);
});
