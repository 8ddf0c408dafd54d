import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { mintApiKey } from '@risk/common/api-keys';
import { QueueProducer } from '@risk/common/queue';
import { SCOPES } from '@risk/contracts';
import { createTestContext, waitFor, type TestContext } from '@risk/testing';
import { exited, freePort } from '../test/worker-process';

/**
 * The fault suite's processes (docs/reliability.md "Fault suite"): each case runs the real public API and
 * worker as children (`node --import tsx src/main.ts`) on a scratch database, with a Redis of its own so
 * stopping it leaves every other suite's Redis alone.
 */
export type Child = ChildProcess & { output: string[] };

export const ROOT = path.join(__dirname, '..', '..', '..');
const MAINS = {
  worker: path.join(ROOT, 'services', 'worker', 'src', 'main.ts'),
  'public-api': path.join(ROOT, 'services', 'public-api', 'src', 'main.ts'),
};

export function spawnChild(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Child {
  const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }) as Child;
  child.output = [];
  child.stdout!.on('data', (d: Buffer) => child.output.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => child.output.push(d.toString()));
  return child;
}

/** A private redis-server child on a free port, no persistence: stop() and start() again on the same port. */
export class PrivateRedis {
  child: Child | undefined;
  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const r = new PrivateRedis(await freePort());
    await r.start();
    return r;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawnChild(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      process.env,
    );
    const probe = new QueueProducer({ url: this.url, prefix: 'probe' }, 'fault-probe');
    try {
      await waitFor('private redis to answer', () => probe.ping(500), { timeoutMs: 10_000, intervalMs: 100 });
    } finally {
      await probe.close();
    }
  }

  /** SIGKILL: Redis vanishes as in a crash (nothing persisted: its queues are lost too) */
  async stop(): Promise<void> {
    if (!this.child) return;
    const done = exited(this.child);
    this.child.kill('SIGKILL');
    await done;
    this.child = undefined;
  }
}

export interface Stack {
  ctx: TestContext;
  redis: PrivateRedis;
  key: string;
  orgId: string;
  env: NodeJS.ProcessEnv;
  apiPort: number;
  apiUrl: string;
  children: Set<Child>;
  startApi(extra?: Record<string, string>): Promise<Child>;
  startWorker(extra?: Record<string, string>): Child;
  close(): Promise<void>;
}

/** A scratch database, a private Redis, an API key; the processes are started by the case. */
export async function createStack(label: string): Promise<Stack> {
  const ctx = await createTestContext(label);
  const redis = await PrivateRedis.start();
  const orgId = `org_${label.replace(/[^a-z0-9]/gi, '')}`;
  const { key } = await mintApiKey(ctx.db.prisma, { org_id: orgId, scopes: [...SCOPES], livemode: true });
  const apiPort = await freePort();
  const children = new Set<Child>();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    ADVISORY_FEEDS_AUTOLOAD: 'false', // seconds of CPU per scratch database (docs/advisories.md "Feeds")
    // the analysis warm-up before readiness (docs/performance.md "A cold worker"), briefly: workers restart often here
    ENRICHMENT_WARMUP_MS: '100',
    DATABASE_URL: ctx.databaseUrl,
    REDIS_URL: redis.url,
    REDIS_PREFIX: ctx.redis.prefix,
    SECRETS_KEY: ctx.config.SECRETS_KEY!,
    ADMIN_API_TOKEN: ctx.config.ADMIN_API_TOKEN!,
    OUTBOUND_ALLOWED_HOSTS_FIREWALL: '127.0.0.1,localhost,::1',
    OUTBOUND_ALLOWED_HOSTS_WEBHOOK: '127.0.0.1,localhost,::1',
    WORKER_LOCK_DURATION_MS: '2000',
    WORKER_STALLED_INTERVAL_MS: '1000',
    OUTBOX_RELAY_INTERVAL_MS: '200',
    MAINTENANCE_INTERVAL_MS: '3600000',
    RATE_LIMIT_LIVE_PER_SECOND: '1000000',
    RATE_LIMIT_TEST_PER_SECOND: '1000000',
    RATE_LIMIT_ADMIN_PER_SECOND: '1000000',
    RATE_LIMIT_FAILED_AUTH_PER_IP: '1000000',
    LOG_LEVEL: 'warn',
  };
  const stack: Stack = {
    ctx,
    redis,
    key,
    orgId,
    env,
    apiPort,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    children,
    async startApi(extra = {}) {
      const child = spawnChild(
        process.execPath,
        ['--import', 'tsx', MAINS['public-api']],
        { ...env, PUBLIC_API_PORT: String(apiPort), ...extra },
        path.dirname(path.dirname(MAINS['public-api'])),
      );
      children.add(child);
      await waitFor(
        'public api to listen',
        async () => {
          if (child.exitCode !== null) throw new Error(`public api exited: ${child.output.join('')}`);
          return fetch(`${stack.apiUrl}/healthz`).then(
            (r) => r.ok,
            () => false,
          );
        },
        20_000,
      );
      return child;
    },
    startWorker(extra = {}) {
      const child = spawnChild(
        process.execPath,
        ['--import', 'tsx', MAINS.worker],
        { ...env, WORKER_HEALTH_PORT: String(20000 + Math.floor(Math.random() * 20000)), ...extra },
        path.dirname(path.dirname(MAINS.worker)),
      );
      children.add(child);
      return child;
    },
    async close() {
      await Promise.all(
        [...children].map(async (c) => {
          const done = exited(c);
          c.kill('SIGKILL');
          await done;
        }),
      );
      await redis.stop();
      await ctx.close();
    },
  };
  return stack;
}

export async function kill(child: Child, signal: NodeJS.Signals = 'SIGKILL') {
  const done = exited(child);
  child.kill(signal);
  return done;
}

/** POST a JSON body to the stack's public API; network errors come back as status 0 */
export async function post(
  stack: Stack,
  pathname: string,
  body: unknown,
  idempotencyKey = randomUUID(),
): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    const res = await fetch(`${stack.apiUrl}${pathname}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stack.key}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = { text };
    }
    return { status: res.status, body: parsed };
  } catch (err) {
    // fetch says only "fetch failed"; the socket's own error (ECONNREFUSED, ECONNRESET, ...) is its cause
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { status: 0, body: { error: String(err), cause: cause?.code ?? cause?.message } };
  }
}

export function signal(stack: Stack, fingerprint: string, extra: Record<string, unknown> = {}) {
  return {
    fingerprint,
    asset_type: 'package',
    name: fingerprint.replace(/^npm:/, '').replace(/@.*$/, ''),
    org_id: stack.orgId,
    observed_at: Math.floor(Date.now() / 1000) - 5,
    ...extra,
  };
}

/** counts of assets by enrichment status, one query */
export async function statusCounts(stack: Stack): Promise<Record<string, number>> {
  const { rows } = await stack.ctx.db.pool.query<{ s: string; n: number }>(
    `SELECT enrichment_status AS s, count(*)::int AS n FROM assets GROUP BY 1`,
  );
  return Object.fromEntries(rows.map((r) => [r.s, r.n]));
}

export { exited, waitFor };
