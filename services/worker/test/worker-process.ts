import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { WorkerHarness } from './harness';

const MAIN = path.join(__dirname, '..', 'src', 'main.ts');

/** Runs the real worker process (`node --import tsx src/main.ts`) against the test's database and queues. */
export function spawnWorker(h: WorkerHarness, env: Record<string, string>): ChildProcess & { output: string[] } {
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

export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}
