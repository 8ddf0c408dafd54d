import type IORedis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '../logger';
import { withTimeout } from '../queue';

/**
 * Rate limits and per-org quotas shared by both APIs (docs/security.md "Rate limits and caps").
 *
 * Counters live in Redis (rate-limiter-flexible's RateLimiterRedis: one Lua INCRBY+PEXPIRE per key and turn,
 * fixed windows; a request policy counts a lease of points at a time, see Limiter) so every replica of a service
 * shares them. Keys are
 * `<REDIS_PREFIX>:rl:<policy>:<caller>`: a test suite's prefix keeps its counters to itself and its
 * clean-up removes them.
 *
 * When Redis fails, each limiter falls back to an in-process counter with the same quota
 * (rate-limiter-flexible's insuranceLimiter): a replica still limits what it sees, so the effective
 * limit is at most one quota per replica until Redis is back. A Redis that hangs instead of failing
 * lets the request through after STORE_TIMEOUT_MS with a logged warning (fail open): a rate limit must
 * never make the API unavailable.
 *
 * Headers follow draft-ietf-httpapi-ratelimit-headers-11 (May 2026; the structured-field form
 * unchanged since -08): `RateLimit-Policy: "<policy>";q=<quota>;w=<window s>` and
 * `RateLimit: "<policy>";r=<remaining>;t=<seconds to reset>`, plus `Retry-After` on a 429.
 */

/** a Redis answer slower than this lets the request through (fail open), with a warning */
export const STORE_TIMEOUT_MS = 500;
/** at most one "rate limiter unavailable" warning per this many ms, not one per request */
const WARN_EVERY_MS = 10_000;
/**
 * A leasing limiter takes this share of its quota from Redis ahead of need (docs/security.md "Rate limits and caps",
 * "Leases"): 1/20, so each replica holds at most 5 % of a window's quota that nobody has used yet.
 */
export const LEASE_SHARE = 1 / 20;
/** leases remembered before the expired ones are swept */
const MAX_LEASES = 10_000;

export interface RateLimitPolicy {
  /** the policy identifier in the RateLimit headers (`"live"`, `"test"`, `"admin"`, …) */
  name: string;
  /** quota per window; 0 turns the policy off */
  quota: number;
  windowSeconds: number;
}

/** One check's outcome, enough to write the RateLimit headers. */
export interface RateLimitDecision {
  policy: RateLimitPolicy;
  allowed: boolean;
  remaining: number;
  /** seconds until the window resets (at least 1 while anything is consumed) */
  resetSeconds: number;
  /** the window's count up to and including this check (0 when the store failed and the check passed) */
  used?: number;
}

/** A check waiting for its turn's store call. */
interface PendingCheck {
  weight: number;
  resolve: (d: RateLimitDecision) => void;
}

/** Points of one key's window this process took from the store ahead of need (Limiter `lease`). */
interface Lease {
  /** points taken and not used yet */
  left: number;
  /** the window's count when the lease was taken, its own points included: used = counted - left */
  counted: number;
  /** when the store's window ends (ms since the epoch); the lease ends with it */
  windowEnd: number;
}

/** Where a limiter counts: `redis` null counts in process only; `keyPrefix` is the service's REDIS_PREFIX. */
export interface LimiterBackend {
  redis: IORedis | null;
  keyPrefix: string;
  logger: Logger;
  /** how long a store call may take before the check fails open (default STORE_TIMEOUT_MS) */
  storeTimeoutMs?: number;
}

/**
 * A fixed-window counter per key, in Redis with an in-process fallback. Without a Redis connection
 * (a tool or test that builds an app without one) it counts in process only.
 */
export class Limiter {
  private readonly store: RateLimiterRedis | RateLimiterMemory;
  private lastWarning = 0;
  private opening?: Promise<void>;

  private readonly redis: IORedis | null;
  private readonly logger: Logger;
  private readonly storeTimeoutMs: number;
  /** the store's points: a check is refused once the window's count passes them */
  private readonly points: number;
  /** this event-loop turn's checks by key, counted together when the turn ends (consume) */
  private turn = new Map<string, PendingCheck[]>();
  private flushing = false;
  /** points per lease (0: no leases, every check is counted in the store) */
  private readonly leasePoints: number;
  private readonly leases = new Map<string, Lease>();
  /** keys whose store call is taking a lease now: one lease in flight per key */
  private readonly leasing = new Set<string>();

  /**
   * `lease`: count most checks in process against points taken from the store ahead of need (LEASE_SHARE of the
   * quota at a time), so a busy key costs a store call per lease instead of per turn. Across replicas the quota
   * still holds: every point is counted in the store before a check uses it; a key may be refused up to one lease
   * per replica early in a window (docs/security.md "Rate limits and caps", "Leases").
   */
  constructor(
    readonly policy: RateLimitPolicy,
    backend: LimiterBackend,
    options: { lease?: boolean } = {},
  ) {
    const { redis, keyPrefix } = backend;
    this.redis = redis;
    this.points = Math.max(policy.quota, 1);
    this.leasePoints = options.lease ? Math.floor(policy.quota * LEASE_SHARE) : 0;
    this.logger = backend.logger;
    this.storeTimeoutMs = backend.storeTimeoutMs ?? STORE_TIMEOUT_MS;
    const inProcess = new RateLimiterMemory({
      keyPrefix: `rl:${policy.name}`,
      points: this.points,
      duration: policy.windowSeconds,
    });
    this.store = redis
      ? new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `${keyPrefix}:rl:${policy.name}`,
          points: this.points,
          duration: policy.windowSeconds,
          // the services pass fail-fast connections (no offline queue): a command on a broken connection
          // fails at once and the in-process fallback answers; a lazy connection still connects on first use
          insuranceLimiter: inProcess,
        })
      : inProcess;
  }

  /**
   * Consumes `weight` points for `key`; never throws (store trouble lets the request through).
   *
   * The checks of one key that arrive in the same event-loop turn are counted with ONE store call of their
   * summed weight (docs/performance.md "The checks of one turn, counted once"), then answered in arrival order
   * as if each had been counted alone: the counter ends at the same value, and a check is allowed exactly
   * when the count up to and including it is within the quota. Under load every request of a busy key
   * arrives in a turn with others, so this is one Redis command per key and turn instead of per request.
   */
  consume(key: string, weight = 1): Promise<RateLimitDecision> {
    const local = this.fromLease(key, weight);
    if (local) return Promise.resolve(local);
    return new Promise((resolve) => {
      let group = this.turn.get(key);
      if (!group) this.turn.set(key, (group = []));
      group.push({ weight, resolve });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const groups = this.turn;
    this.turn = new Map();
    this.flushing = false;
    for (const [key, checks] of groups) void this.consumeGroup(key, checks);
  }

  /** The check answered from the key's lease, when the lease holds its weight in the current window. */
  private fromLease(key: string, weight: number): RateLimitDecision | null {
    const lease = this.leases.get(key);
    if (!lease) return null;
    const now = Date.now();
    if (now >= lease.windowEnd) {
      this.leases.delete(key);
      return null;
    }
    if (lease.left < weight) return null;
    lease.left -= weight;
    return this.decision(true, lease.counted - lease.left, lease.windowEnd - now);
  }

  private async consumeGroup(key: string, checks: PendingCheck[]): Promise<void> {
    let total = 0;
    for (const c of checks) total += c.weight;
    // what the key's lease lacks of a full one, taken with this turn's checks unless another call is taking it
    const held = this.leases.get(key);
    const extra =
      this.leasePoints > 0 && !this.leasing.has(key) ? Math.max(0, this.leasePoints - (held?.left ?? 0)) : 0;
    if (extra > 0) this.leasing.add(key);
    let res: RateLimiterRes | null;
    try {
      res = await this.consumeTotal(key, total + extra);
    } finally {
      if (extra > 0) this.leasing.delete(key);
    }
    if (!res) {
      for (const c of checks) c.resolve(this.failOpen());
      return;
    }
    // the count before this turn's checks, then each check's own count in arrival order
    let count = res.consumedPoints - total - extra;
    for (const c of checks) {
      count += c.weight;
      c.resolve(this.decision(count <= this.points, count, res.msBeforeNext));
    }
    // the extra points counted after the checks: what of them is within the quota is this process's to use
    const granted = Math.min(extra, Math.max(0, this.points - count));
    if (granted > 0 && res.msBeforeNext > 0) this.keepLease(key, { granted, count, msBeforeNext: res.msBeforeNext });
  }

  private keepLease(key: string, taken: { granted: number; count: number; msBeforeNext: number }): void {
    const { granted, count, msBeforeNext } = taken;
    const now = Date.now();
    const held = this.leases.get(key);
    const left = (held && held.windowEnd > now ? held.left : 0) + granted;
    if (this.leases.size >= MAX_LEASES) for (const [k, l] of this.leases) if (l.windowEnd <= now) this.leases.delete(k);
    this.leases.set(key, { left, counted: count + granted, windowEnd: now + msBeforeNext });
  }

  /** The store's answer for `weight` points (refused or not), or null when the store failed: the checks pass. */
  private async consumeTotal(key: string, weight: number): Promise<RateLimiterRes | null> {
    try {
      await this.opened();
      // the library's fallback answers silently: say once in a while that counters are per process now
      if (this.redis && this.redis.status !== 'ready')
        this.warn(`Redis connection ${this.redis.status}`, 'counting in this process until Redis is back');
      return await withTimeout(this.store.consume(key, weight), this.storeTimeoutMs, 'rate limiter');
    } catch (err) {
      if (err instanceof RateLimiterRes) return err;
      this.warn(err instanceof Error ? err.message : String(err), 'requests pass unlimited until it answers');
      return null;
    }
  }

  /**
   * Gives back `weight` points a refused check of `key` consumed, so a weighted request that is refused as a whole
   * (an import larger than what is left of the quota) costs nothing. Never throws: store trouble keeps the points.
   */
  async refund(key: string, weight: number): Promise<void> {
    if (weight <= 0) return;
    try {
      await withTimeout(this.store.reward(key, weight), this.storeTimeoutMs, 'rate limiter');
    } catch (err) {
      this.warn(err instanceof Error ? err.message : String(err), 'a refused request keeps its points');
    }
  }

  private failOpen(): RateLimitDecision {
    return {
      policy: this.policy,
      allowed: true,
      remaining: this.policy.quota,
      resetSeconds: this.policy.windowSeconds,
      used: 0,
    };
  }

  /**
   * A fail-fast connection refuses commands while it is still opening (a process's first requests):
   * wait for it then, up to STORE_TIMEOUT_MS, instead of counting those requests in the fallback. A
   * connection that is reconnecting (Redis down) is not waited for.
   */
  private async opened(): Promise<void> {
    const redis = this.redis;
    if (!redis) return;
    const status = redis.status;
    if (status !== 'wait' && status !== 'connecting' && status !== 'connect') return;
    // one 'ready' listener for all the requests that arrive while it opens
    this.opening ??= new Promise<void>((resolve) => {
      redis.once('ready', () => resolve());
      if (status === 'wait') void redis.connect().catch(() => undefined);
    }).finally(() => (this.opening = undefined));
    await withTimeout(this.opening, this.storeTimeoutMs, 'redis connect').catch(() => undefined);
  }

  private decision(allowed: boolean, consumed: number, msBeforeNext: number): RateLimitDecision {
    return {
      policy: this.policy,
      allowed,
      remaining: Math.max(this.policy.quota - consumed, 0),
      resetSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
      used: consumed,
    };
  }

  private warn(err: string, consequence: string): void {
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    this.logger.warn(`rate limiter store unavailable; ${consequence}`, { policy: this.policy.name, err });
  }
}
