// What console sign-in may mint (docs/security.md "Console sign-in and session credentials"): each tenant session
// holds a tenant token and an API key of its own, so sign-ins count against the tenant's admin rate limit, a tenant
// holds at most MAX_OPEN_CONSOLE_SESSIONS_PER_TENANT open sessions (the oldest ends, credentials and all), and the
// statement maintenance runs revokes the credentials of sessions that lapsed without being presented again.
import request from 'supertest';
import { decryptSecret } from '@risk/common/crypto';
import { RequestGuard, rateLimitSettings } from '@risk/common/http';
import { endConsoleSessions } from '@risk/db';
import { createApp } from '../src/app';
import { MAX_OPEN_CONSOLE_SESSIONS_PER_TENANT } from '../src/domain/console-sessions/sign-in';
import { createAdminHarness, expectError, type AdminHarness, type Tenant } from './harness';

let h: AdminHarness;

beforeAll(async () => {
  h = await createAdminHarness('adminconsolelimits');
});
afterAll(async () => h.close());

async function signIn(tenant: Tenant, app = h.app) {
  const res = await request(app).post('/console/v1/session').send({ token: tenant.token });
  return { res, cookie: String(res.headers['set-cookie']).split(';')[0]!, id: res.body.id as string };
}

const prisma = () => h.ctx.db.prisma;

async function credentialsOf(sessionId: string) {
  const row = await prisma().consoleSession.findUniqueOrThrow({ where: { id: sessionId } });
  const [token, key] = await Promise.all([
    prisma().tenantToken.findUniqueOrThrow({ where: { id: row.session_token_id! } }),
    prisma().apiKey.findUniqueOrThrow({ where: { id: row.api_key_id! } }),
  ]);
  return { row, token, key };
}

describe('console sign-in', () => {
  it(`keeps at most ${MAX_OPEN_CONSOLE_SESSIONS_PER_TENANT} open sessions per tenant: the oldest ends, with its credentials`, async () => {
    const t = await h.registerTenant();
    const other = await h.registerTenant();
    const otherSession = await signIn(other);
    const sessions = [];
    for (let i = 0; i < MAX_OPEN_CONSOLE_SESSIONS_PER_TENANT + 3; i++) {
      const s = await signIn(t);
      expect(s.res.status).toBe(201);
      sessions.push(s);
    }
    const open = await prisma().consoleSession.findMany({ where: { tenant_id: t.id, revoked_at: null } });
    expect(open.map((s) => s.id).sort()).toEqual(
      sessions
        .slice(3)
        .map((s) => s.id)
        .sort(),
    );
    // the three oldest ended and their own tenant tokens and API keys are revoked
    for (const s of sessions.slice(0, 3)) {
      const c = await credentialsOf(s.id);
      expect([c.row.revoked_at, c.token.revoked_at, c.key.revoked_at].every((d) => d instanceof Date)).toBe(true);
      expectError(await request(h.app).get('/console/v1/session').set('Cookie', s.cookie), 401, 'session_revoked');
    }
    // live console keys of the org: the cap, not one per sign-in (the old code: 13)
    const liveKeys = await prisma().apiKey.count({
      where: { org_id: t.org_id, revoked_at: null, name: { startsWith: 'console session' } },
    });
    expect(liveKeys).toBe(MAX_OPEN_CONSOLE_SESSIONS_PER_TENANT);
    // the newest session works, and another tenant's session was not touched
    expect((await request(h.app).get('/console/v1/session').set('Cookie', sessions.at(-1)!.cookie)).status).toBe(200);
    expect((await request(h.app).get('/console/v1/session').set('Cookie', otherSession.cookie)).status).toBe(200);
  });

  it("counts against the tenant's admin rate limit, and a refused sign-in mints nothing", async () => {
    // a guard whose admin quota is 2 an hour, so the test does not depend on the wall clock
    const guard = new RequestGuard(
      { ...rateLimitSettings(h.ctx.config), admin: { name: 'admin', quota: 2, windowSeconds: 3600 } },
      { redis: null, keyPrefix: h.ctx.config.REDIS_PREFIX, logger: h.ctx.logger },
    );
    const limited = createApp({
      config: h.ctx.config,
      prisma: prisma(),
      logger: h.ctx.logger,
      pingRedis: () => h.redis.ping(),
      guard,
    });
    const t = await h.registerTenant();
    const other = await h.registerTenant();
    expect((await signIn(t, limited)).res.status).toBe(201);
    expect((await signIn(t, limited)).res.status).toBe(201);
    const refused = await signIn(t, limited);
    expectError(refused.res, 429, 'rate_limited');
    expect(refused.res.headers['retry-after']).toEqual(expect.any(String));
    expect(await prisma().consoleSession.count({ where: { tenant_id: t.id } })).toBe(2);
    expect(await prisma().apiKey.count({ where: { org_id: t.org_id, name: { startsWith: 'console session' } } })).toBe(
      2,
    );
    // the limit is the tenant's own: another tenant signs in
    expect((await signIn(other, limited)).res.status).toBe(201);
  });
});

describe("ended sessions' credentials", () => {
  it('are revoked by the maintenance statement even when the session is never presented again', async () => {
    const t = await h.registerTenant();
    const idle = await signIn(t);
    const expired = await signIn(t);
    const revokedSignIn = await h.registerTenant();
    const orphan = await signIn(revokedSignIn);
    const live = await signIn(t);
    const now = new Date();
    await prisma().consoleSession.update({
      where: { id: idle.id },
      data: { last_seen_at: new Date(now.getTime() - 31 * 60_000) },
    });
    await prisma().consoleSession.update({
      where: { id: expired.id },
      data: { expires_at: new Date(now.getTime() - 1) },
    });
    // the tenant token typed in at sign-in is revoked: the session can never be used again
    const signinTokenId = (await prisma().consoleSession.findUniqueOrThrow({ where: { id: orphan.id } }))
      .signin_token_id!;
    await prisma().tenantToken.update({ where: { id: signinTokenId }, data: { revoked_at: now } });

    const ended = await endConsoleSessions(prisma(), { select: { lapsed: true }, now });
    expect(ended).toBeGreaterThanOrEqual(3);
    for (const s of [idle, expired, orphan]) {
      const c = await credentialsOf(s.id);
      expect([c.row.revoked_at, c.token.revoked_at, c.key.revoked_at].every((d) => d instanceof Date)).toBe(true);
    }
    // the session's own tenant token no longer opens an admin route
    const { row } = await credentialsOf(idle.id);
    const sessionToken = decryptSecret(row.tenant_token_ciphertext!, h.ctx.config.SECRETS_KEY!);
    expectError(
      await request(h.app).get('/firewalls/v1').set('Authorization', `Bearer ${sessionToken}`),
      401,
      'token_revoked',
    );
    // a session in use is left alone
    const c = await credentialsOf(live.id);
    expect([c.row.revoked_at, c.token.revoked_at, c.key.revoked_at]).toEqual([null, null, null]);
    expect((await request(h.app).get('/console/v1/admin/firewalls/v1').set('Cookie', live.cookie)).status).toBe(200);
  });
});
