// The console's public door under attack, on the real stack (docs/security.md "The console's public door"): the
// door calls the public API from admin-api's one address for every tenant, so a tenant that makes its own session
// fail authentication must not get every other tenant's door refused by the public API's failed-auth limit, and the
// door forwards a session's key to the public API's /v1/ routes only, whatever dot segments the path carries.
import request from 'supertest';
import { mintApiKey } from '@risk/common/api-keys';
import { CONSOLE_DOOR_HEADER, consoleDoorHeader } from '@risk/common/http';
import { expectError, type AdminHarness, type Tenant } from './harness';
import { adminHarnessWithPublicApi, type PublicApiOnHarness } from './public-api';

/** failed authentications allowed per address (and, through the door, per session) in this suite */
const FAILED_AUTH_LIMIT = 3;

let h: AdminHarness;
let pub: PublicApiOnHarness;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ h, pub, close } = await adminHarnessWithPublicApi('admindoor', 'test-admin-door', {
    RATE_LIMIT_FAILED_AUTH_PER_IP: String(FAILED_AUTH_LIMIT),
    // one proxy in front of admin-api: each tenant's browser has its own address (X-Forwarded-For), as in a
    // deployment; the door's own calls to the public API carry no such header
    TRUST_PROXY: '1',
  }));
});
afterAll(() => close());

interface Session {
  cookie: string;
  id: string;
  /** the browser's address */
  ip: string;
}

async function signIn(tenant: Tenant, ip: string): Promise<Session> {
  const res = await request(h.app).post('/console/v1/session').set('X-Forwarded-For', ip).send({ token: tenant.token });
  expect(res.status).toBe(201);
  return { cookie: String(res.headers['set-cookie']).split(';')[0]!, id: res.body.id, ip };
}

const door = (s: Session, path: string) =>
  request(h.app).get(`/console/v1/public${path}`).set('Cookie', s.cookie).set('X-Forwarded-For', s.ip);

describe("one tenant's failed authentications through the door", () => {
  it("never refuse another tenant's door: a session whose key was revoked ends instead of being retried", async () => {
    const a = await h.registerTenant();
    const b = await h.registerTenant();
    const attacker = await signIn(a, '203.0.113.10');
    const victim = await signIn(b, '198.51.100.20');
    expect((await door(victim, '/v1/assets?limit=1')).status).toBe(200);

    // tenant A revokes its own session's key through the admin door, as the audit did, then keeps calling
    const row = await h.ctx.db.prisma.consoleSession.findUniqueOrThrow({ where: { id: attacker.id } });
    expect((await h.call('delete', `/keys/v1/${row.api_key_id}`, { auth: a.auth })).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < FAILED_AUTH_LIMIT * 3; i++) statuses.push((await door(attacker, '/v1/assets?limit=1')).status);
    // the first call finds the key refused and ends the session; then the session itself is refused (401) until
    // the attacker's own address is blocked (429)
    expect(statuses[0]).toBe(401);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    const ended = await h.ctx.db.prisma.consoleSession.findUniqueOrThrow({ where: { id: attacker.id } });
    expect(ended.revoked_at).not.toBeNull();
    expect(
      await h.ctx.db.prisma.tenantToken.findUniqueOrThrow({ where: { id: ended.session_token_id! } }),
    ).toMatchObject({ revoked_at: expect.any(Date) });

    // tenant B's door still answers (the old door: 429 rate_limited for 300 s, every tenant's console)
    const after = await door(victim, '/v1/assets?limit=1');
    expect(after.status).toBe(200);
    expect(after.body.object).toBe('list');
    // and a fresh session of tenant A from another browser works too
    const again = await signIn(a, '203.0.113.11');
    expect((await door(again, '/v1/assets?limit=1')).status).toBe(200);
  });

  it('count against the session the door names on the public API, never against the address the door shares', async () => {
    const t = await h.registerTenant();
    const good = await mintApiKey(h.ctx.db.prisma, { org_id: t.org_id, scopes: ['assets:read'], livemode: true });
    const secretsKey = h.ctx.config.SECRETS_KEY!;
    const asDoor = (sessionId: string, key: string) =>
      request(pub.app)
        .get('/v1/assets?limit=1')
        .set('Authorization', `Bearer ${key}`)
        .set(CONSOLE_DOOR_HEADER, consoleDoorHeader(sessionId, secretsKey));
    // one session's key fails until that session is blocked…
    for (let i = 0; i < FAILED_AUTH_LIMIT; i++)
      expectError(await asDoor('csn_noisy', 'rk_live_not_a_real_key_0000000000000000000000'), 401, 'api_key_invalid');
    expectError(await asDoor('csn_noisy', good.key), 429, 'rate_limited');
    // …while another session and a direct client on the same address are not refused
    expect((await asDoor('csn_quiet', good.key)).status).toBe(200);
    expect((await request(pub.app).get('/v1/assets?limit=1').set('Authorization', `Bearer ${good.key}`)).status).toBe(
      200,
    );
  });

  it('a door header without the right MAC counts against the address, like any client', async () => {
    const t = await h.registerTenant();
    const good = await mintApiKey(h.ctx.db.prisma, { org_id: t.org_id, scopes: ['assets:read'], livemode: true });
    // a direct client on an address of its own (this app trusts one proxy hop) forging door headers per request
    const forged = (n: number) =>
      request(pub.app)
        .get('/v1/assets?limit=1')
        .set('X-Forwarded-For', '192.0.2.77')
        .set('Authorization', 'Bearer rk_live_not_a_real_key_1111111111111111111111')
        .set(CONSOLE_DOOR_HEADER, `csn_forged${n}.${'A'.repeat(43)}`);
    for (let i = 0; i < FAILED_AUTH_LIMIT; i++) expectError(await forged(i), 401, 'api_key_invalid');
    const blocked = await request(pub.app)
      .get('/v1/assets?limit=1')
      .set('X-Forwarded-For', '192.0.2.77')
      .set('Authorization', `Bearer ${good.key}`);
    expectError(blocked, 429, 'rate_limited');
  });
});

describe("the door's path", () => {
  it('refuses dot segments, raw or encoded, and backslashes before forwarding the key; the session lives on', async () => {
    const t = await h.registerTenant();
    const s = await signIn(t, '203.0.113.30');
    for (const path of [
      '/v1/../docs/',
      '/v1/%2e%2e/docs/',
      '/v1/%2E%2e/metrics',
      '/v1/.%2e/openapi.json',
      '/v1/./assets',
      '/v1/%2e/assets',
      '/v1/assets/..',
      '/v1\\..\\docs/',
      '/v1/..\\docs/',
    ]) {
      const res = await request(h.app)
        .get(`/console/v1/public${path}`)
        .set('Cookie', s.cookie)
        .set('X-Forwarded-For', s.ip);
      expect({ path, status: res.status, type: res.headers['content-type'] }).toEqual({
        path,
        status: 404,
        type: expect.stringMatching(/^application\/json/),
      });
      expect(res.body.error.code).toBe('route_not_found');
    }
    // the refusals neither ended the session nor counted as failed authentications
    const ok = await door(s, '/v1/assets?limit=1');
    expect(ok.status).toBe(200);
    expect(ok.body.url).toBe('/v1/assets');
  });
});
