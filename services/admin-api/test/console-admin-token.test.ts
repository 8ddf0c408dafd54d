// An admin console session and a rotation of ADMIN_API_TOKEN, on the real stack (docs/security.md "Console sessions
// and the admin token"): a session opened with a leaked admin token must end once the operator configures another
// one, instead of keeping full admin for up to 8 h (and minting 30-day tenant tokens in that time).
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createApp } from '../src/app';
import { createAdminHarness, expectError, type AdminHarness } from './harness';

let h: AdminHarness;

beforeAll(async () => {
  h = await createAdminHarness('adminconsoletoken');
});
afterAll(async () => h.close());

/** admin-api restarted on the same database with `adminToken` as ADMIN_API_TOKEN */
const appWithAdminToken = (adminToken: string | undefined) =>
  createApp({
    config: { ...h.ctx.config, ADMIN_API_TOKEN: adminToken },
    prisma: h.ctx.db.prisma,
    logger: h.ctx.logger,
    pingRedis: () => h.redis.ping(),
    redis: h.redis,
  });

async function adminSignIn(app: ReturnType<typeof createApp>, token: string) {
  const res = await request(app).post('/console/v1/session').send({ token });
  expect(res.status).toBe(201);
  return { cookie: String(res.headers['set-cookie']).split(';')[0]!, id: res.body.id as string };
}

const tenantsThroughConsole = (app: ReturnType<typeof createApp>, cookie: string) =>
  request(app).get('/console/v1/admin/tenants/v1?limit=1').set('Cookie', cookie);

describe('an admin console session', () => {
  it('stores an HMAC of the admin token it was opened with, never the token', async () => {
    const s = await adminSignIn(h.app, h.ctx.config.ADMIN_API_TOKEN!);
    const row = await h.ctx.db.prisma.consoleSession.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.admin_token_hmac).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(row)).not.toContain(h.ctx.config.ADMIN_API_TOKEN!);
    expect((await tenantsThroughConsole(h.app, s.cookie)).status).toBe(200);
  });

  it('ends once ADMIN_API_TOKEN is rotated: the old session is refused and stays ended, a new one works', async () => {
    const leaked = h.ctx.config.ADMIN_API_TOKEN!;
    const s = await adminSignIn(h.app, leaked);
    expect((await tenantsThroughConsole(h.app, s.cookie)).status).toBe(200);

    // the operator rotates the token and restarts admin-api
    const rotated = `adm_${randomBytes(24).toString('hex')}`;
    const restarted = appWithAdminToken(rotated);
    expectError(
      await request(restarted).get('/tenants/v1').set('Authorization', `Bearer ${leaked}`),
      401,
      'token_invalid',
    );
    // the old code answered 200 with the tenant list here
    expectError(await tenantsThroughConsole(restarted, s.cookie), 401, 'session_revoked');
    const row = await h.ctx.db.prisma.consoleSession.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.revoked_at).not.toBeNull();
    // and it stays ended, even on a process still configured with the old token
    expectError(await tenantsThroughConsole(h.app, s.cookie), 401, 'session_revoked');

    const fresh = await adminSignIn(restarted, rotated);
    expect((await tenantsThroughConsole(restarted, fresh.cookie)).status).toBe(200);
    // the leaked token no longer opens a session
    expectError(
      await request(restarted).post('/console/v1/session').send({ token: leaked }),
      401,
      'token_invalid',
      'token',
    );
  });

  it('ends when no admin token is configured any more, and when it carries no binding (opened before it existed)', async () => {
    const s = await adminSignIn(h.app, h.ctx.config.ADMIN_API_TOKEN!);
    expectError(await tenantsThroughConsole(appWithAdminToken(undefined), s.cookie), 401, 'session_revoked');

    const unbound = await adminSignIn(h.app, h.ctx.config.ADMIN_API_TOKEN!);
    await h.ctx.db.prisma.consoleSession.update({ where: { id: unbound.id }, data: { admin_token_hmac: null } });
    expectError(await tenantsThroughConsole(h.app, unbound.cookie), 401, 'session_revoked');
  });
});
