import { pingDatabase } from '@risk/db';
import type { AdminDeps } from '../deps';

const CHECK_TIMEOUT_MS = 2000;

async function check(fn: () => Promise<unknown>) {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      fn(),
      new Promise(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error(`timed out after ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS)),
      ),
    ]);
    return { status: 'up', latency_ms: Date.now() - started };
  } catch (err) {
    return { status: 'down', error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer); // a settled check must not keep a 2 s timer alive per request
  }
}

/** Postgres and Redis, each within 2 s: status ok, or degraded with the one that is down. */
export async function checkHealth(deps: Pick<AdminDeps, 'prisma'> & { pingRedis: () => Promise<unknown> }) {
  const [postgres, redis] = await Promise.all([check(() => pingDatabase(deps.prisma)), check(deps.pingRedis)]);
  const ok = postgres.status === 'up' && redis.status === 'up';
  return { status: ok ? ('ok' as const) : ('degraded' as const), service: 'Admin API', checks: { postgres, redis } };
}
