// Feed secret rotation with a grace period the caller chooses (docs/feeds.md "Feed tokens", docs/security.md "Feed
// secret rotation"): after a leak the previous secret must stop at once (grace 0) without revoking the token and its
// new secret; the default stays 24 h so firewalls can be updated one by one.
import { createAdminHarness, expectError, type AdminHarness, type Tenant } from './harness';
import { feedToken } from './feed-fixtures';

let h: AdminHarness;
let a: Tenant;
let b: Tenant;
const LIST = '/feeds/v1/lists/fortigate-url/high';

beforeAll(async () => {
  h = await createAdminHarness('adminfeedrotation', { deps: { feedCacheTtlMs: 0 } });
  a = await h.registerTenant();
  b = await h.registerTenant();
});
afterAll(async () => h?.close());

const rotate = (id: string, body?: unknown, tenant = a) =>
  h.call('post', `/feeds/v1/tokens/${id}/rotate`, { auth: tenant.auth, body });
const list = (secret: string) => h.call('get', LIST, { auth: `Bearer ${secret}` });

describe('POST /feeds/v1/tokens/{id}/rotate', () => {
  it('grace_period_seconds 0 ends the leaked secret at once; the new one works and the token stays active', async () => {
    const t = await feedToken(h, a);
    expect((await list(t.secret)).status).toBe(200);
    const rotated = await rotate(t.id, { grace_period_seconds: 0 });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ status: 'active', previous_expires_at: null });
    // the old code kept the leaked secret working for 24 h here
    expectError(await list(t.secret), 401, 'token_invalid');
    expectError(
      await h.call('get', LIST, { auth: `Basic ${Buffer.from(`${t.id}:${t.secret}`).toString('base64')}` }),
      401,
      'token_invalid',
    );
    expect((await list(rotated.body.token)).status).toBe(200);
  });

  it('keeps the previous secret for the chosen grace, 24 h when none is given (no body, or an empty one)', async () => {
    const t = await feedToken(h, a);
    const before = Date.now();
    const hour = await rotate(t.id, { grace_period_seconds: 3600 });
    expect(hour.status).toBe(200);
    const hourEnds = Date.parse(hour.body.previous_expires_at);
    expect(hourEnds - before).toBeGreaterThanOrEqual(3600_000 - 1000);
    expect(hourEnds - Date.now()).toBeLessThanOrEqual(3600_000);
    expect((await list(t.secret)).status).toBe(200); // within the grace

    for (const body of [undefined, {}]) {
      const u = await feedToken(h, a);
      const start = Date.now();
      const res = await rotate(u.id, body);
      expect(res.status).toBe(200);
      const ends = Date.parse(res.body.previous_expires_at);
      expect(ends - start).toBeGreaterThanOrEqual(86_400_000 - 1000);
      expect(ends - Date.now()).toBeLessThanOrEqual(86_400_000);
      expect((await list(u.secret)).status).toBe(200);
    }
  });

  it('refuses a grace outside 0..86400 or not a whole number, and changes nothing', async () => {
    const t = await feedToken(h, a);
    for (const grace of [-1, 86_401, '60', null])
      expectError(
        await rotate(t.id, { grace_period_seconds: grace }),
        400,
        'parameter_invalid',
        'grace_period_seconds',
      );
    for (const grace of [1.5])
      expectError(
        await rotate(t.id, { grace_period_seconds: grace }),
        400,
        'parameter_invalid_integer',
        'grace_period_seconds',
      );
    expectError(await rotate(t.id, { grace: 0 }), 400, 'parameter_unknown', 'grace');
    // still the first secret, never rotated
    expect((await list(t.secret)).status).toBe(200);
    const row = await h.ctx.db.prisma.feedToken.findUniqueOrThrow({ where: { id: t.id } });
    expect(row.previous_token_hash).toBeNull();
    // another tenant cannot rotate it, with or without a grace
    expectError(await rotate(t.id, { grace_period_seconds: 0 }, b), 404, 'resource_missing', 'id');
    expect((await list(t.secret)).status).toBe(200);
  });
});
