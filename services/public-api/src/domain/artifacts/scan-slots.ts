// How many uploads are received and scanned at once (docs/artifacts.md "Upload scans under a budget"). Per replica:
// an in-process count (ARTIFACTS_SCANS_PER_REPLICA), since the disk, memory and scan threads it protects are the
// replica's own; past it 503 service_unavailable with Retry-After (another replica may have room). Per org across all
// replicas: a Redis sorted set of the org's uploads in flight, each with a lease (ARTIFACTS_SCANS_PER_ORG); past it
// 429 rate_limited with Retry-After. A slot is taken before the body is read and given back when the scan ends; a
// replica that dies leaves its entries to expire with their lease (renewed while the scan runs).
import { randomUUID } from 'node:crypto';
import { ApiError } from '@risk/common/errors';
import type { AppDeps } from '../../deps';

/** Seconds a refused upload is told to wait: about one scan of a typical upload. */
export const SCAN_SLOT_RETRY_AFTER_SECONDS = 5;

let inFlight = 0;

/** Uploads this process is receiving or scanning (tests and metrics). */
export function scansInFlight(): number {
  return inFlight;
}

// Drops expired entries, then adds this one if fewer than the cap remain; 1 taken, 0 refused. Atomic in Redis, so
// two replicas cannot both take the last slot.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

const orgKey = (orgId: string): string => `artifacts:scans:${orgId}`;

export interface ScanSlot {
  /** Gives the slot back (idempotent). */
  release(): Promise<void>;
}

const busy = (code: 'rate_limited' | 'service_unavailable', message: string): ApiError =>
  new ApiError(code, { message, headers: { 'Retry-After': String(SCAN_SLOT_RETRY_AFTER_SECONDS) } });

/** Takes a replica slot and an org slot, or throws 503/429 with Retry-After without holding either. */
export async function acquireScanSlot(deps: AppDeps, orgId: string): Promise<ScanSlot> {
  const { config } = deps;
  if (inFlight >= config.ARTIFACTS_SCANS_PER_REPLICA)
    throw busy('service_unavailable', 'This server is scanning as many artifacts as it can; retry shortly.');
  inFlight++;
  const redis = deps.producer.limiterConnection;
  const member = randomUUID();
  const leaseMs = config.ARTIFACTS_SCAN_LEASE_MS;
  const timers: { renew?: NodeJS.Timeout } = {};
  let released = false;
  const release = async (): Promise<void> => {
    if (released) return;
    released = true;
    clearInterval(timers.renew);
    inFlight--;
    await redis.zrem(orgKey(orgId), member).catch(() => undefined);
  };
  try {
    const now = Date.now();
    const taken = await redis.eval(
      ACQUIRE,
      1,
      orgKey(orgId),
      String(now),
      String(now + leaseMs),
      String(config.ARTIFACTS_SCANS_PER_ORG),
      member,
      String(leaseMs * 2),
    );
    if (taken !== 1)
      throw busy(
        'rate_limited',
        `Your organisation has ${config.ARTIFACTS_SCANS_PER_ORG} artifact uploads in flight, the most at once; retry when one ends.`,
      );
  } catch (err) {
    await release();
    throw err;
  }
  timers.renew = setInterval(
    () => {
      void redis.zadd(orgKey(orgId), 'XX', Date.now() + leaseMs, member).catch(() => undefined);
      void redis.pexpire(orgKey(orgId), leaseMs * 2).catch(() => undefined);
    },
    Math.max(1000, Math.floor(leaseMs / 3)),
  );
  timers.renew.unref();
  return { release };
}
