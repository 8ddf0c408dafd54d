// Shared helpers of the rate-limit suites (rate-limits-key, rate-limits-ip, rate-limits-body, rate-limits-caps).
import request from 'supertest';
import type { Harness } from './harness';

// Rate limits and caps (docs/security.md "Rate limits and caps"), tried as a hostile client would:
// real Redis counters, real low limits, two app instances standing in for two replicas. Limits are
// per 1 s fixed window, so checks that need one window retry with a fresh key when a window boundary
// falls between two requests (a key's first request always opens a new window).

export const get = (h: Harness, key: string, path = '/v1/threats', app: Harness['app'] = h.app) =>
  request(app).get(path).set('Authorization', `Bearer ${key}`);

/** Sends GETs with `key` until one is refused (at most `max`); returns that 429 and how many passed before it. */
export async function burstUntil429(h: Harness, key: string, max = 200) {
  for (let i = 0; i < max; i++) {
    const res = await get(h, key);
    if (res.status === 429) return { res, passed: i };
    expect(res.status).toBe(200);
  }
  throw new Error(`no 429 after ${max} requests`);
}

/** Parses `"<policy>";r=<n>;t=<n>` (draft-ietf-httpapi-ratelimit-headers-11 §3). */
export function rateLimitField(value: string | undefined) {
  const m = /^"([a-z_]+)";r=(\d+);t=(\d+)$/.exec(value ?? '');
  if (!m) throw new Error(`not a RateLimit field: ${value}`);
  return { policy: m[1], r: Number(m[2]), t: Number(m[3]) };
}
