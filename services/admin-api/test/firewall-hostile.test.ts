// A tenant's "firewall" may be a host the tenant controls (docs/security.md "Firewall replies"). The audit's attack:
// a TLS server answering 8 MiB of attribute-bomb XML to POST /firewalls/v1/{id}/test, twice at once, held admin
// /health for 16.6 s (the reply was read whole and parsed on the main thread). Replies are now capped per call and
// parsed in a thread under a CPU budget, and tests are limited per firewall, in Redis.
import request from 'supertest';
import { createApp } from '../src/app';
import { attributeBombXml, closeReplyParsers, REPLY_CAP_BYTES, startHostileFirewall } from '@risk/firewalls';
import type { HostileFirewallState, SimulatorHandle } from '@risk/firewalls';
import { currentSlowdown } from '@risk/time-budget';
import { expectError, harnessWithTenant, unique, type AdminHarness, type Tenant } from './harness';

const TESTS_PER_MINUTE = 3;

let h: AdminHarness;
let tenant: Tenant;
let bomb: SimulatorHandle<HostileFirewallState>;
let heavy: SimulatorHandle<HostileFirewallState>;

beforeAll(async () => {
  ({ h, tenant } = await harnessWithTenant('adminfwhostile', {
    env: { FIREWALL_TESTS_PER_MINUTE: String(TESTS_PER_MINUTE) },
  }));
  // the audit's reply: 8 MiB of attributes on <response>
  bomb = await startHostileFirewall(attributeBombXml(8 * 1024 * 1024));
  // within the cap, so read whole: its parse costs a main thread 50–150 ms a call
  heavy = await startHostileFirewall(attributeBombXml(REPLY_CAP_BYTES - 1024));
});
afterAll(async () => {
  await bomb?.close();
  await heavy?.close();
  await closeReplyParsers();
  await h?.close();
});

const hostileFirewall = async (port: number) => {
  const res = await h.createFirewall(tenant.auth, {
    name: unique('evil'),
    type: 'palo_alto',
    host: '127.0.0.1',
    port,
    api_token: h.newApiToken(),
    verify_ssl: false,
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
};
const testCall = (id: string, auth = tenant.auth) => h.call('post', `/firewalls/v1/${id}/test`, { auth });

/** Polls GET /health every ~50 ms while `work` runs; the slowest answer, in ms. */
async function slowestHealth<T>(work: Promise<T>): Promise<{ slowestMs: number; result: T }> {
  let done = false;
  let slowestMs = 0;
  const poll = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await request(h.app).get('/health');
      slowestMs = Math.max(slowestMs, performance.now() - started);
      expect(res.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const [result] = await Promise.all([
    work.finally(() => {
      done = true;
    }),
    poll,
  ]);
  return { slowestMs, result };
}

describe('POST /firewalls/v1/{id}/test against a hostile firewall', () => {
  it('keeps /health answering while two tests read an 8 MiB attribute bomb, and answers with a clear error', async () => {
    const id = await hostileFirewall(bomb.port);
    const { slowestMs, result } = await slowestHealth(Promise.all([testCall(id), testCall(id)]));
    for (const res of result) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        ok: false,
        status: 'error',
        error: {
          reason: 'unexpected_response',
          message: expect.stringMatching(`sent a reply larger than ${REPLY_CAP_BYTES} bytes to POST /api/`),
        },
      });
    }
    expect(bomb.state.requests).toBeGreaterThanOrEqual(2);
    expect(slowestMs).toBeLessThan(1000 * currentSlowdown());
  });

  it('keeps /health answering while replies within the cap that are costly to parse are parsed', async () => {
    const id = await hostileFirewall(heavy.port);
    const { slowestMs, result } = await slowestHealth(Promise.all([testCall(id), testCall(id)]));
    for (const res of result) expect(res.body).toMatchObject({ ok: true, model: 'PA-VM' });
    expect(slowestMs).toBeLessThan(1000 * currentSlowdown());
  });
});

describe('FIREWALL_TESTS_PER_MINUTE', () => {
  it('refuses a firewall tested too often with 429 rate_limited, on every replica, and no other firewall', async () => {
    const id = await hostileFirewall(heavy.port);
    const other = await hostileFirewall(heavy.port);
    const intruder = await h.registerTenant();
    // another tenant's attempts are 404 and do not count against the firewall
    for (let i = 0; i < TESTS_PER_MINUTE; i++)
      expectError(await testCall(id, intruder.auth), 404, 'resource_missing', 'id');
    for (let i = 0; i < TESTS_PER_MINUTE; i++) expect((await testCall(id)).status).toBe(200);
    const before = heavy.state.requests;
    const refused = await testCall(id);
    const error = expectError(refused, 429, 'rate_limited');
    expect(error.message).toMatch(`This firewall was tested ${TESTS_PER_MINUTE} times in the last minute`);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-policy']).toBe(`"firewall_test";q=${TESTS_PER_MINUTE};w=60`);
    // a second replica on the same Redis counts the same calls
    const replica = createApp({
      config: h.ctx.config,
      prisma: h.ctx.db.prisma,
      logger: h.ctx.logger,
      pingRedis: () => h.redis.ping(),
      redis: h.redis,
      connectorFor: h.connectorFor,
    });
    const elsewhere = await request(replica).post(`/firewalls/v1/${id}/test`).set('Authorization', tenant.auth);
    expectError(elsewhere, 429, 'rate_limited');
    // a refused test never reaches the device
    expect(heavy.state.requests).toBe(before);
    expect((await testCall(other)).status).toBe(200);
  });
});
