// Console sessions on the real stack (docs/console.md "Sign-in and access"): the admin and a tenant sign in,
// reach the admin routes and (tenant only) the public API through the session-bound proxies; sessions end at
// sign-out, after 30 min idle or 8 h, when the sign-in token is revoked or the tenant suspended; a state-changing
// call without the CSRF token or from another origin changes nothing; one tenant never reaches another's data.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ZConsoleSession } from '@risk/contracts';
import { expectError, type AdminHarness, type Tenant } from './harness';
import { adminHarnessWithPublicApi } from './public-api';

let h: AdminHarness;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ h, close } = await adminHarnessWithPublicApi('adminconsole', 'test-admin-console'));
});
afterAll(() => close());

interface Session {
  cookie: string;
  csrf: string;
  id: string;
  body: Record<string, unknown>;
}

async function signIn(token: string): Promise<Session> {
  const res = await request(h.app).post('/console/v1/session').send({ token });
  expect(res.status).toBe(201);
  const setCookie = String(res.headers['set-cookie']);
  expect(setCookie).toMatch(
    /^risk_console=cs_[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=(28800|28799)/,
  );
  expect(ZConsoleSession.parse(res.body)).toBeTruthy();
  expect(JSON.stringify(res.body)).not.toContain(token);
  return { cookie: setCookie.split(';')[0]!, csrf: res.body.csrf_token, id: res.body.id, body: res.body };
}

/** a console call: the cookie, and for a state-changing one the CSRF token unless `csrf: null` */
function consoleCall(
  s: Session,
  method: 'get' | 'post' | 'put' | 'delete',
  path: string,
  opts: { body?: unknown; csrf?: string | null; origin?: string } = {},
) {
  let req = request(h.app)[method](path).set('Cookie', s.cookie);
  const csrf = opts.csrf === undefined ? s.csrf : opts.csrf;
  if (method !== 'get' && csrf) req = req.set('X-Console-CSRF', csrf);
  if (opts.origin) req = req.set('Origin', opts.origin);
  if (method === 'post') req = req.set('Idempotency-Key', randomUUID());
  return opts.body === undefined ? req : req.send(opts.body as object);
}

const sessionRow = (id: string) => h.ctx.db.prisma.consoleSession.findUniqueOrThrow({ where: { id } });

describe('platform admin', () => {
  it('signs in with the admin token, manages tenants through the proxy, and has no public-API door', async () => {
    const s = await signIn(h.ctx.config.ADMIN_API_TOKEN!);
    expect(s.body).toMatchObject({ kind: 'admin', tenant: null, scopes: [] });
    const tenants = await consoleCall(s, 'get', '/console/v1/admin/tenants/v1');
    expect(tenants.status).toBe(200);
    expect(tenants.body.object).toBe('list');
    expectError(await consoleCall(s, 'get', '/console/v1/public/v1/assets'), 403, 'tenant_session_required');
    // the tenant routes need a tenant's session, as they need a tenant token
    expectError(await consoleCall(s, 'get', '/console/v1/admin/firewalls/v1'), 403, 'tenant_token_required');
    // the proxy reaches tenant-facing route families only
    expectError(await consoleCall(s, 'get', '/console/v1/admin/metrics'), 404, 'route_not_found');
    const row = await sessionRow(s.id);
    expect(row).toMatchObject({ kind: 'admin', tenant_id: null, api_key_id: null, tenant_token_ciphertext: null });
  });
});

describe('tenant security team', () => {
  let a: Tenant;
  let b: Tenant;
  beforeAll(async () => {
    a = await h.registerTenant();
    b = await h.registerTenant();
  });

  it("works on its admin objects and its org's public data with the session's own least-privilege key", async () => {
    const s = await signIn(a.token);
    expect(s.body).toMatchObject({ kind: 'tenant', tenant: { id: a.id, org_id: a.org_id } });
    expect(s.body.scopes).not.toContain('signals:write');
    expect(s.body.scopes).toContain('artifacts:read');
    expect(s.body.scopes).not.toContain('artifacts:write');
    expect((await consoleCall(s, 'get', '/console/v1/admin/firewalls/v1')).status).toBe(200);
    expectError(await consoleCall(s, 'get', '/console/v1/admin/tenants/v1'), 403, 'admin_token_required');
    const assets = await consoleCall(s, 'get', '/console/v1/public/v1/assets?limit=5');
    expect(assets.status).toBe(200);
    expect(assets.body).toMatchObject({ object: 'list', url: '/v1/assets' });
    expect(assets.headers['cache-control']).toBe('no-store');
    const row = await sessionRow(s.id);
    const key = await h.ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: row.api_key_id! } });
    expect(key).toMatchObject({ org_id: a.org_id, revoked_at: null });
    expect(key.expires_at!.getTime()).toBe(row.expires_at.getTime());
    // nothing secret in the row but hashes and ciphertexts
    expect(row.tenant_token_ciphertext).not.toContain('eyJ');
    // the session's own key cannot submit signals (no signals:write)
    const post = await consoleCall(s, 'post', '/console/v1/public/v1/signals', { body: {} });
    expectError(post, 403, 'insufficient_scope');
  });

  it("never reaches another tenant's objects", async () => {
    const fw = await h.createFirewall(b.auth, {
      name: 'b-fw',
      type: 'palo_alto',
      host: '10.20.30.40',
      port: 443,
      api_token: h.newApiToken(),
      verify_ssl: false,
    });
    expect(fw.status).toBe(201);
    const s = await signIn(a.token);
    expectError(
      await consoleCall(s, 'get', `/console/v1/admin/firewalls/v1/${fw.body.id}`),
      404,
      'resource_missing',
      'id',
    );
    const list = await consoleCall(s, 'get', '/console/v1/admin/firewalls/v1');
    expect(list.body.data.map((f: { id: string }) => f.id)).not.toContain(fw.body.id);
  });

  it('refuses a state-changing call without the CSRF token, with a wrong one, or from another origin; nothing changes', async () => {
    const s = await signIn(a.token);
    const policy = { name: 'csrf-probe', default_action: 'allow', rules: [] };
    const before = await h.ctx.db.prisma.urlFilterPolicy.count({ where: { tenant_id: a.id } });
    expectError(
      await consoleCall(s, 'post', '/console/v1/admin/policies/v1/url-filter', { body: policy, csrf: null }),
      403,
      'csrf_check_failed',
    );
    expectError(
      await consoleCall(s, 'post', '/console/v1/admin/policies/v1/url-filter', { body: policy, csrf: 'x'.repeat(43) }),
      403,
      'csrf_check_failed',
    );
    expectError(
      await consoleCall(s, 'post', '/console/v1/admin/policies/v1/url-filter', {
        body: policy,
        origin: 'https://evil.example',
      }),
      403,
      'csrf_check_failed',
    );
    expectError(await consoleCall(s, 'delete', '/console/v1/session', { csrf: null }), 403, 'csrf_check_failed');
    expect(await h.ctx.db.prisma.urlFilterPolicy.count({ where: { tenant_id: a.id } })).toBe(before);
    expect((await sessionRow(s.id)).revoked_at).toBeNull();
    // another session's CSRF token is not this one's
    const other = await signIn(a.token);
    expectError(await consoleCall(s, 'delete', '/console/v1/session', { csrf: other.csrf }), 403, 'csrf_check_failed');
    // with it, the call goes through
    const ok = await consoleCall(s, 'post', '/console/v1/admin/policies/v1/url-filter', { body: policy });
    expect(ok.status).toBe(201);
    // a sign-in posted from another origin is refused too (login CSRF)
    const cross = await request(h.app)
      .post('/console/v1/session')
      .set('Origin', 'https://evil.example')
      .send({ token: a.token });
    expectError(cross, 403, 'csrf_check_failed');
  });

  it("sign-out ends the session and revokes the session's own tenant token and API key", async () => {
    const s = await signIn(a.token);
    const out = await consoleCall(s, 'delete', '/console/v1/session');
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^risk_console=; .*Max-Age=0/);
    expectError(await consoleCall(s, 'get', '/console/v1/session'), 401, 'session_revoked');
    expectError(await consoleCall(s, 'get', '/console/v1/public/v1/assets'), 401, 'session_revoked');
    const row = await sessionRow(s.id);
    const key = await h.ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: row.api_key_id! } });
    const token = await h.ctx.db.prisma.tenantToken.findUniqueOrThrow({ where: { id: row.session_token_id! } });
    expect(key.revoked_at).not.toBeNull();
    expect(token.revoked_at).not.toBeNull();
    // the tenant token typed in at sign-in is the user's own and stays valid
    expect((await h.call('get', '/firewalls/v1', { auth: a.auth })).status).toBe(200);
  });

  it('ends after 30 minutes idle and 8 hours after sign-in, revoking its credentials', async () => {
    const idle = await signIn(a.token);
    await h.ctx.db.prisma.consoleSession.update({
      where: { id: idle.id },
      data: { last_seen_at: new Date(Date.now() - 31 * 60_000) },
    });
    expectError(await consoleCall(idle, 'get', '/console/v1/session'), 401, 'session_expired');
    const idleRow = await sessionRow(idle.id);
    expect(idleRow.revoked_at).not.toBeNull();
    expect(
      (await h.ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: idleRow.api_key_id! } })).revoked_at,
    ).not.toBeNull();

    const old = await signIn(a.token);
    await h.ctx.db.prisma.consoleSession.update({
      where: { id: old.id },
      data: { expires_at: new Date(Date.now() - 1000) },
    });
    expectError(await consoleCall(old, 'get', '/console/v1/admin/firewalls/v1'), 401, 'session_expired');
  });

  it('ends when the tenant token it was opened with is revoked, and is refused while the tenant is suspended', async () => {
    const minted = await h.call('post', `/tenants/v1/${a.id}/tokens`, { auth: h.adminAuth, body: { name: 'laptop' } });
    const s = await signIn(minted.body.token);
    expect((await consoleCall(s, 'get', '/console/v1/session')).status).toBe(200);
    await h.call('delete', `/tenants/v1/${a.id}/tokens/${minted.body.id}`, { auth: h.adminAuth });
    expectError(await consoleCall(s, 'get', '/console/v1/session'), 401, 'session_revoked');

    const c = await h.registerTenant();
    const sc = await signIn(c.token);
    expect((await h.call('post', `/tenants/v1/${c.id}/suspend`, { auth: h.adminAuth })).status).toBe(200);
    expectError(await consoleCall(sc, 'get', '/console/v1/public/v1/assets'), 403, 'tenant_suspended');
    expectError(await request(h.app).post('/console/v1/session').send({ token: c.token }), 403, 'tenant_suspended');
  });
});

describe('hostile input', () => {
  it('refuses a wrong token, a forged cookie and a malformed body without creating a session', async () => {
    const before = await h.ctx.db.prisma.consoleSession.count();
    expectError(
      await request(h.app).post('/console/v1/session').send({ token: 'not-a-token' }),
      401,
      'token_invalid',
      'token',
    );
    expectError(
      await request(h.app).post('/console/v1/session').send({ token: 'x', extra: 1 }),
      400,
      'parameter_unknown',
      'extra',
    );
    expectError(await request(h.app).post('/console/v1/session').send({}), 400, 'missing_required_param', 'token');
    expect(await h.ctx.db.prisma.consoleSession.count()).toBe(before);
    const forged = await request(h.app)
      .get('/console/v1/session')
      .set('Cookie', `risk_console=cs_${'A'.repeat(43)}`);
    expectError(forged, 401, 'session_missing');
    const junk = await request(h.app).get('/console/v1/admin/firewalls/v1').set('Cookie', 'risk_console=<script>');
    expectError(junk, 401, 'session_missing');
    // the proxy never follows a path out of its prefix
    const s = await signIn(h.ctx.config.ADMIN_API_TOKEN!);
    expectError(await consoleCall(s, 'get', '/console/v1/admin/../../metrics'), 404, 'route_not_found');
  });
});
