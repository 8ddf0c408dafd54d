// `pnpm start` as a child process, for the CLI's start tests (packages/cli/test/start*.test.ts): free ports,
// the environment of a stack on a test context's database and Redis prefix (secrets passed in, so a test
// never writes the repo's .risk-local.json), the run with its combined output, and ANSI-free text.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { TestContext } from './index';
import { waitFor } from './wait-for';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const START = path.join(ROOT, 'packages', 'cli', 'src', 'start.ts');

/**
 * A port free on 127.0.0.1 now and unlikely to be taken before the caller's process binds it: picked at random
 * below the kernel's ephemeral range. A port from `listen(0)` is released in the ephemeral range, where any
 * other process's `listen(0)` (supertest starts one per request) or outgoing connection may take it in the
 * seconds before a spawned service binds it; CI saw a start test's public-api lose its port to another
 * suite's server that then answered its /readyz (docs/reliability.md "Test ports").
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  const floor = Math.max(1024, low - 12_000);
  for (let attempt = 0; attempt < 50 && low - floor > 100; attempt++) {
    const port = floor + Math.floor(Math.random() * (low - floor));
    if (await canListen(port)) return port;
  }
  return listenZero();
}

/** The lowest port of the kernel's ephemeral range (what `listen(0)` and outgoing connections draw from). */
const ephemeralLow = (): number => {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (low > 0) return low;
  } catch {
    // not Linux: the usual default (RFC 6335's dynamic range)
  }
  return 49152;
};

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

async function listenZero(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The text without ANSI colour codes. */
export const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

/** A fresh ADMIN_API_TOKEN and SECRETS_KEY. */
export const startSecrets = () => ({
  ADMIN_API_TOKEN: randomBytes(24).toString('hex'),
  SECRETS_KEY: randomBytes(32).toString('hex'),
});

export interface StackPorts {
  pub: number;
  adm: number;
  wrk: number;
}

/** Three free ports and the environment of a stack on the context's database and Redis prefix. */
export async function stackEnv(
  ctx: TestContext,
  extra: Record<string, string> = {},
): Promise<{ ports: StackPorts; env: Record<string, string> }> {
  const [pub, adm, wrk] = [await freePort(), await freePort(), await freePort()];
  return {
    ports: { pub, adm, wrk },
    env: {
      ...startSecrets(),
      DATABASE_URL: ctx.databaseUrl,
      REDIS_URL: ctx.redis.url,
      REDIS_PREFIX: ctx.redis.prefix,
      PUBLIC_API_PORT: String(pub),
      ADMIN_API_PORT: String(adm),
      WORKER_HEALTH_PORT: String(wrk),
      LOG_LEVEL: 'warn',
      // the worker's analysis warm-up runs before it reports ready (docs/performance.md "A cold worker"), briefly
      ENRICHMENT_WARMUP_MS: '100',
      ...extra,
    },
  };
}

export interface StartRun {
  child: ChildProcess;
  /** stdout and stderr so far */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `pnpm start` (packages/cli/src/start.ts under tsx) with only PATH, HOME and `env`. */
export function runStart(env: Record<string, string>, args: string[] = []): StartRun {
  const child = spawn(process.execPath, ['--import', 'tsx', START, ...args], {
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

/** Whether a GET of the URL answers 2xx (false when nothing answers). */
export const httpOk = (url: string) =>
  fetch(url).then(
    (r) => r.ok,
    () => false,
  );

/** Waits (60 s at most) until the three services answer over HTTP; fails at once if start exits. */
export async function waitForStack(run: StartRun, ports: StackPorts): Promise<void> {
  await waitFor(
    'the three services',
    async () => {
      if (run.child.exitCode !== null) throw new Error(`start exited early:\n${run.output()}`);
      return (
        (await httpOk(`http://127.0.0.1:${ports.pub}/readyz`)) &&
        (await httpOk(`http://127.0.0.1:${ports.adm}/`)) &&
        (await httpOk(`http://127.0.0.1:${ports.wrk}/healthz`))
      );
    },
    { timeoutMs: 60_000, intervalMs: 200 },
  );
}
