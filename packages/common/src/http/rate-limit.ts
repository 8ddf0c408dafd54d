import type { Request, Response } from 'express';
import type { Config } from '../config';
import { ApiError } from '../errors';
import { rateLimitRefusals } from '../metrics/catalogue';
import { consoleDoorSession } from './console-door';
import { Limiter, type LimiterBackend, type RateLimitDecision, type RateLimitPolicy } from './rate-limiter';

export * from './rate-limiter';

/**
 * Rate limits and per-org quotas shared by both APIs (docs/security.md "Rate limits and caps"): the
 * settings from the config, the 429s and their headers, and the RequestGuard the route builder calls.
 * The counters themselves are rate-limiter.ts.
 */

/** addresses remembered as blocked in one process (the counts themselves live in Redis) */
const MAX_BLOCKED_ADDRESSES = 10_000;

/** `RateLimit-Policy` and `RateLimit` for a decision (draft-ietf-httpapi-ratelimit-headers-11 §2, §3). */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  return {
    'RateLimit-Policy': `"${d.policy.name}";q=${d.policy.quota};w=${d.policy.windowSeconds}`,
    RateLimit: `"${d.policy.name}";r=${d.remaining};t=${d.resetSeconds}`,
  };
}

/** The headers of a 429 for a refused decision: Retry-After and the RateLimit fields. */
export function retryHeaders(d: RateLimitDecision): Record<string, string> {
  return { 'Retry-After': String(d.resetSeconds), ...rateLimitHeaders(d) };
}

/** 429 rate_limited in the envelope, with Retry-After and the RateLimit headers. */
export function rateLimitError(d: RateLimitDecision, message?: string): ApiError {
  rateLimitRefusals.inc({ policy: d.policy.name }); // docs/observability.md
  return new ApiError('rate_limited', {
    message:
      message ??
      `Too many requests: the '${d.policy.name}' limit is ${d.policy.quota} per ${d.policy.windowSeconds} s. Retry after ${d.resetSeconds} s.`,
    headers: retryHeaders(d),
  });
}

/** The caller's address for per-IP limits: express's req.ip, which honours TRUST_PROXY and nothing else. */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** The policies of one deployment, from the env (Config). */
export interface RateLimitSettings {
  enabled: boolean;
  live: RateLimitPolicy;
  test: RateLimitPolicy;
  admin: RateLimitPolicy;
  failedAuth: RateLimitPolicy;
  bulkWeight: number;
  /** a per-org cap, not a rate limit: RATE_LIMIT_ENABLED=false leaves it on */
  threatWrites: RateLimitPolicy;
  /** connection tests per firewall; like threatWrites, RATE_LIMIT_ENABLED=false leaves it on */
  firewallTests: RateLimitPolicy;
  /**
   * the public API only: SECRETS_KEY, to recognise the console's public door (console-door.ts), whose failed
   * authentications count against the console session it names instead of admin-api's shared address
   */
  consoleDoorKey?: string;
}

export function rateLimitSettings(config: Config): RateLimitSettings {
  return {
    enabled: config.RATE_LIMIT_ENABLED,
    live: { name: 'live', quota: config.RATE_LIMIT_LIVE_PER_SECOND, windowSeconds: 1 },
    test: { name: 'test', quota: config.RATE_LIMIT_TEST_PER_SECOND, windowSeconds: 1 },
    admin: { name: 'admin', quota: config.RATE_LIMIT_ADMIN_PER_SECOND, windowSeconds: 1 },
    failedAuth: {
      name: 'failed_auth',
      quota: config.RATE_LIMIT_FAILED_AUTH_PER_IP,
      windowSeconds: config.RATE_LIMIT_FAILED_AUTH_WINDOW_SECONDS,
    },
    bulkWeight: config.RATE_LIMIT_BULK_WEIGHT,
    threatWrites: { name: 'threat_writes', quota: config.THREAT_WRITES_PER_ORG_PER_HOUR, windowSeconds: 3600 },
    firewallTests: { name: 'firewall_test', quota: config.FIREWALL_TESTS_PER_MINUTE, windowSeconds: 60 },
  };
}

/**
 * The request guard both APIs run before anything else of an authenticated route: the per-IP
 * failed-authentication block, then authentication (the caller's own function), then the caller's
 * limit. Only then does the route read its body and claim an idempotency key, so a refused request
 * costs no parsing and stores nothing.
 */
export class RequestGuard {
  private readonly limiters = new Map<string, Limiter>();
  private readonly failedAuth: Limiter | null;
  private readonly threatWrites: Limiter | null;
  private readonly firewallTests: Limiter | null;
  /** addresses whose failed authentications are used up → when their window ends (ms) */
  private readonly blockedUntil = new Map<string, number>();

  /** `backend.redis` null: counters per process (for apps built without Redis: tools, some tests) */
  constructor(
    private readonly settings: RateLimitSettings,
    backend: LimiterBackend,
  ) {
    for (const policy of [settings.live, settings.test, settings.admin]) {
      // a request's own check is answered from a lease most of the time: no Redis round trip (rate-limiter.ts)
      if (settings.enabled && policy.quota > 0)
        this.limiters.set(policy.name, new Limiter(policy, backend, { lease: true }));
    }
    this.failedAuth =
      settings.enabled && settings.failedAuth.quota > 0 ? new Limiter(settings.failedAuth, backend) : null;
    this.threatWrites = settings.threatWrites.quota > 0 ? new Limiter(settings.threatWrites, backend) : null;
    this.firewallTests = settings.firewallTests.quota > 0 ? new Limiter(settings.firewallTests, backend) : null;
  }

  get bulkWeight(): number {
    return this.settings.bulkWeight;
  }

  /**
   * Runs `authenticate` unless the client's address has used up its failed authentications (429,
   * whatever credential it sends). A 401 from `authenticate` counts against the address in Redis; the
   * failure that uses up the allowance is still a 401, and from then on the address is refused here
   * until the window ends. The block is remembered in process, so a request that authenticates costs
   * no Redis round trip for it; another replica learns of the block at the address's first failure
   * there (docs/security.md "Rate limits and caps").
   */
  async authenticate<T>(req: Request, authenticate: () => Promise<T>): Promise<T> {
    if (!this.failedAuth) return authenticate();
    const ip = this.failedAuthSubject(req);
    const until = this.blockedUntil.get(ip);
    if (until !== undefined) {
      const ms = until - Date.now();
      if (ms > 0)
        throw this.failedAuthError({
          policy: this.failedAuth.policy,
          allowed: false,
          remaining: 0,
          resetSeconds: Math.ceil(ms / 1000),
        });
      this.blockedUntil.delete(ip);
    }
    try {
      return await authenticate();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        const d = await this.failedAuth.consume(ip);
        if (d.remaining === 0) this.block(ip, d);
        if (!d.allowed) throw this.failedAuthError(d);
      }
      throw err;
    }
  }

  /** What failed authentications count against: the client's address, or the console session the door names. */
  private failedAuthSubject(req: Request): string {
    const session = this.settings.consoleDoorKey ? consoleDoorSession(req, this.settings.consoleDoorKey) : null;
    return session ? `console-session:${session}` : clientIp(req);
  }

  private block(ip: string, d: RateLimitDecision): void {
    if (this.blockedUntil.size >= MAX_BLOCKED_ADDRESSES) {
      const now = Date.now();
      for (const [addr, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(addr);
      // still full of live blocks: forget the oldest (Redis still counts their failures)
      if (this.blockedUntil.size >= MAX_BLOCKED_ADDRESSES)
        this.blockedUntil.delete(this.blockedUntil.keys().next().value!);
    }
    this.blockedUntil.set(ip, Date.now() + d.resetSeconds * 1000);
  }

  private failedAuthError(d: RateLimitDecision): ApiError {
    return rateLimitError(d, `Too many failed authentications from this address; retry after ${d.resetSeconds} s.`);
  }

  /**
   * Counts one request (of `weight`) of `caller` against `policy` ('live', 'test' or 'admin'), sets
   * the RateLimit headers on the response and throws the 429 when the quota is used up.
   */
  async limit(
    res: Response,
    request: { policy: 'live' | 'test' | 'admin'; caller: string; weight?: number },
  ): Promise<void> {
    const { policy, caller, weight = 1 } = request;
    const limiter = this.limiters.get(policy);
    if (!limiter) return;
    const d = await limiter.consume(caller, weight);
    if (!d.allowed) throw rateLimitError(d);
    const headers = rateLimitHeaders(d);
    res.setHeader('RateLimit-Policy', headers['RateLimit-Policy']!);
    res.setHeader('RateLimit', headers.RateLimit!);
  }

  /**
   * Counts one connection test of a firewall against FIREWALL_TESTS_PER_MINUTE (429 rate_limited once used up). A test
   * makes the service connect to a host the tenant chose and parse what it answers (docs/security.md "Firewall
   * replies"), so it is limited per firewall, in Redis, whichever replica takes the call.
   */
  async countFirewallTest(firewallId: string): Promise<void> {
    if (!this.firewallTests) return;
    const d = await this.firewallTests.consume(firewallId);
    if (!d.allowed)
      throw rateLimitError(
        d,
        `This firewall was tested ${d.policy.quota} times in the last minute, the most allowed; retry after ${d.resetSeconds} s.`,
      );
  }

  /**
   * Counts `weight` threat creates or updates of `org` (in one mode) against THREAT_WRITES_PER_ORG_PER_HOUR: 1 for a
   * single create or update, the number of threats a STIX import would create or change (known before it writes).
   * 429 threat_write_limit_reached when the weight is more than what is left of the hour's quota; a refused request
   * gives its points back, so it costs nothing (docs/security.md "Caps per org").
   */
  async countThreatWrite(org: string, weight = 1): Promise<void> {
    if (!this.threatWrites || weight <= 0) return;
    const d = await this.threatWrites.consume(org, weight);
    if (!d.allowed) {
      await this.threatWrites.refund(org, weight);
      rateLimitRefusals.inc({ policy: d.policy.name });
      const left = Math.max(d.policy.quota - ((d.used ?? weight) - weight), 0);
      throw new ApiError('threat_write_limit_reached', {
        message:
          weight === 1
            ? `This org has written ${d.policy.quota} threats in the last hour, the most allowed; retry after ${d.resetSeconds} s.`
            : `This request would write ${weight} threats, more than the ${left} this org may still write this hour ` +
              `(${d.policy.quota} per hour); nothing was written. Retry after ${d.resetSeconds} s, or send fewer objects.`,
        headers: retryHeaders({ ...d, remaining: left }),
      });
    }
  }
}
