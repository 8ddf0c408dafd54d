// Tenant credentials (docs/security.md "Tenant credentials and firewall tokens"): tenant
// tokens have ids, are listed without their secret and revoked for good; suspending a tenant stops its tenant
// tokens, its deployment tokens and the API keys of its org on the PUBLIC API at once, and reactivating it
// restores exactly the credentials that were valid before.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { decodeJwt } from 'jose';
import { ZRegisteredTenant, ZTenant, ZTenantToken } from '@risk/contracts';
import { createAdminHarness, expectError, type AdminHarness, type Tenant } from './harness';
import { publicApiOn, type PublicApiOnHarness, type PublicApp } from './public-api';

let h: AdminHarness;
let pub: PublicApiOnHarness;
let publicApp: PublicApp;

beforeAll(async () => {
  h = await createAdminHarness('admintenantcreds');
  pub = publicApiOn(h, 'test-admin-tenant-creds');
  publicApp = pub.app;
});
afterAll(async () => {
  await pub?.close();
  await h.close();
});

const tokensOf = (t: { id: string }) => `/tenants/v1/${t.id}/tokens`;
const mint = async (t: Tenant, body: Record<string, unknown> = {}) => {
  const res = await h.call('post', tokensOf(t), { auth: h.adminAuth, body });
  expect(res.status).toBe(201);
  return res.body as { id: string; token: string };
};
const tenantCall = (auth: string) => h.call('get', '/firewalls/v1', { auth });

describe('GET /tenants/v1/{id}/tokens', () => {
  it('lists every token of the tenant with id, status, expiry and last use, never the secret', async () => {
    const t = await h.registerTenant();
    const named = await mint(t, { name: 'ci pipeline', expires_in_days: 7 });
    expect(named).toMatchObject({ object: 'tenant_token', tenant_id: t.id, name: 'ci pipeline', status: 'active' });
    expect(named.id).toMatch(/^ttk_/);
    // the JWT carries its id
    expect(decodeJwt(named.token).jti).toBe(named.id);
    expect((await tenantCall(`Bearer ${named.token}`)).status).toBe(200);

    const res = await h.call('get', tokensOf(t), { auth: h.adminAuth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', url: tokensOf(t), has_more: false });
    const registerId = decodeJwt(t.token).jti;
    expect(res.body.data.map((x: { id: string }) => x.id)).toEqual([named.id, registerId]);
    expect(res.body.data[0]).toEqual({
      object: 'tenant_token',
      id: named.id,
      tenant_id: t.id,
      name: 'ci pipeline',
      status: 'active',
      expires_at: expect.any(String),
      revoked_at: null,
      last_used_at: expect.any(String),
      created: expect.any(String),
    });
    expect(res.body.data[1].last_used_at).toBeNull();
    // the responses are what the OpenAPI document says
    for (const item of res.body.data) expect(ZTenantToken.safeParse(item).error).toBeUndefined();
    expect(ZTenantToken.safeParse(named).error).toBeUndefined();
    const registered = await h.call('post', '/tenants/v1/register', {
      auth: h.adminAuth,
      body: { name: `${t.name}-2`, admin_email: 'a@example.com' },
    });
    expect(ZRegisteredTenant.safeParse(registered.body).error).toBeUndefined();
    expect(registered.body.tenant_token).toMatchObject({
      status: 'active',
      id: decodeJwt(registered.body.tenant_token.token).jti,
    });
    for (const secret of [t.token, named.token]) expect(res.text).not.toContain(secret);
    expect(res.text).not.toMatch(/"token"/);

    const page = await h.call('get', tokensOf(t), { auth: h.adminAuth, query: { limit: '1' } });
    expect(page.body).toMatchObject({ has_more: true, data: [{ id: named.id }] });
  });

  it('404 for an unknown tenant; a tenant token cannot list tokens', async () => {
    expectError(
      await h.call('get', tokensOf({ id: 'ten_unknown' }), { auth: h.adminAuth }),
      404,
      'resource_missing',
      'id',
    );
    const t = await h.registerTenant();
    expectError(await h.call('get', tokensOf(t), { auth: t.auth }), 403, 'admin_token_required');
  });
});

describe('DELETE /tenants/v1/{id}/tokens/{token_id}', () => {
  it('the revoked token is 401 token_revoked on its next request; the tenant’s other tokens keep working', async () => {
    const t = await h.registerTenant();
    const spare = await mint(t);
    expect((await tenantCall(t.auth)).status).toBe(200);
    const tokenId = decodeJwt(t.token).jti!;
    const revoked = await h.call('delete', `${tokensOf(t)}/${tokenId}`, { auth: h.adminAuth });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: tokenId, status: 'revoked', revoked_at: expect.any(String) });
    expect(revoked.text).not.toContain(t.token);
    const err = expectError(await tenantCall(t.auth), 401, 'token_revoked');
    expect(err.type).toBe('authentication_error');
    expect((await tenantCall(`Bearer ${spare.token}`)).status).toBe(200);
    // revoking again keeps the first revocation time
    const again = await h.call('delete', `${tokensOf(t)}/${tokenId}`, { auth: h.adminAuth });
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
  });

  it('404 for an unknown token, another tenant’s token, or an unknown tenant', async () => {
    const a = await h.registerTenant();
    const b = await h.registerTenant();
    const bToken = decodeJwt(b.token).jti!;
    expectError(
      await h.call('delete', `${tokensOf(a)}/ttk_unknown`, { auth: h.adminAuth }),
      404,
      'resource_missing',
      'token_id',
    );
    expectError(
      await h.call('delete', `${tokensOf(a)}/${bToken}`, { auth: h.adminAuth }),
      404,
      'resource_missing',
      'token_id',
    );
    expectError(
      await h.call('delete', `/tenants/v1/ten_unknown/tokens/${bToken}`, { auth: h.adminAuth }),
      404,
      'resource_missing',
      'id',
    );
    // b's token was not touched by the attempt through a
    expect((await tenantCall(b.auth)).status).toBe(200);
  });
});

describe('POST /tenants/v1/{id}/suspend and /reactivate', () => {
  async function deploymentToken(t: Tenant) {
    const res = await h.call('post', `/tenants/v1/${t.id}/deployment-token`, { auth: h.adminAuth, body: {} });
    expect(res.status).toBe(201);
    return res.body as { id: string; token: string };
  }
  const exchange = (token: string) => h.call('get', '/deploy/v1/credentials', { query: { token } });
  const publicGet = (key: string) => request(publicApp).get('/v1/assets?limit=1').set('Authorization', `Bearer ${key}`);
  const publicPost = (key: string, orgId: string) =>
    request(publicApp)
      .post('/v1/signals')
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', randomUUID())
      .send({
        fingerprint: `sha256:${randomUUID().replace(/-/g, '')}${randomUUID().replace(/-/g, '')}`,
        asset_type: 'mcp_server',
        org_id: orgId,
        observed_at: Math.floor(Date.now() / 1000) - 30,
        name: '@modelcontextprotocol/server-filesystem',
      });

  it('stops the tenant’s tokens, deployment tokens and public API keys at once; reactivation restores them', async () => {
    const t = await h.registerTenant();
    const bystander = await h.registerTenant();
    const dpl = await deploymentToken(t);
    const key = (await exchange(dpl.token)).body.api_key.key as string;
    const bystanderDpl = await deploymentToken(bystander);
    const bystanderKey = (await exchange(bystanderDpl.token)).body.api_key.key as string;
    expect((await publicGet(key)).status).toBe(200);

    const suspended = await h.call('post', `/tenants/v1/${t.id}/suspend`, { auth: h.adminAuth });
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({ object: 'tenant', id: t.id, status: 'suspended' });
    expect(suspended.body.suspended_at).toEqual(expect.any(String));
    expect(ZTenant.safeParse(suspended.body).error).toBeUndefined();
    // idempotent: a second suspension keeps the first time
    const twice = await h.call('post', `/tenants/v1/${t.id}/suspend`, { auth: h.adminAuth });
    expect(twice.body.suspended_at).toBe(suspended.body.suspended_at);

    // all three kinds of credential, on the very next request
    expectError(await tenantCall(t.auth), 403, 'tenant_suspended');
    expectError(await exchange(dpl.token), 403, 'tenant_suspended', 'token');
    const read = await publicGet(key);
    expect({ status: read.status, code: read.body.error?.code, type: read.body.error?.type }).toEqual({
      status: 403,
      code: 'tenant_suspended',
      type: 'permission_error',
    });
    const signalsBefore = await h.ctx.db.prisma.signal.count({ where: { org_id: t.org_id } });
    expect((await publicPost(key, t.org_id)).status).toBe(403);
    expect(await h.ctx.db.prisma.signal.count({ where: { org_id: t.org_id } })).toBe(signalsBefore);
    // the refused exchange used nothing and minted nothing
    const dplRow = await h.ctx.db.prisma.deploymentToken.findUniqueOrThrow({ where: { id: dpl.id } });
    expect(dplRow.use_count).toBe(1);
    expect(await h.ctx.db.prisma.apiKey.count({ where: { org_id: t.org_id } })).toBe(1);

    // another tenant is untouched
    expect((await tenantCall(bystander.auth)).status).toBe(200);
    expect((await publicGet(bystanderKey)).status).toBe(200);

    // the admin still manages the suspended tenant: list and revoke its tokens while it is suspended
    const revokedWhileSuspended = (
      await h.call('delete', `${tokensOf(t)}/${decodeJwt(t.token).jti}`, { auth: h.adminAuth })
    ).body;
    expect(revokedWhileSuspended.status).toBe('revoked');
    const spare = await mint(t);
    expectError(await tenantCall(`Bearer ${spare.token}`), 403, 'tenant_suspended');
    expect((await h.call('get', `/tenants/v1/${t.id}`, { auth: h.adminAuth })).body.status).toBe('suspended');

    const reactivated = await h.call('post', `/tenants/v1/${t.id}/reactivate`, { auth: h.adminAuth });
    expect(reactivated.body).toMatchObject({ status: 'active', suspended_at: null });
    expect((await tenantCall(`Bearer ${spare.token}`)).status).toBe(200);
    expect((await exchange(dpl.token)).status).toBe(200);
    expect((await publicGet(key)).status).toBe(200);
    expect((await publicPost(key, t.org_id)).status).toBe(202);
    // revocation is permanent: reactivation does not bring back the token revoked during the suspension
    expectError(await tenantCall(t.auth), 401, 'token_revoked');
  });

  it('a deployment token revoked before the suspension stays revoked after reactivation, with its keys', async () => {
    const t = await h.registerTenant();
    const dpl = await deploymentToken(t);
    const key = (await exchange(dpl.token)).body.api_key.key as string;
    expect(
      (await h.call('delete', `/tenants/v1/${t.id}/deployment-token/${dpl.id}`, { auth: h.adminAuth })).status,
    ).toBe(200);
    await h.call('post', `/tenants/v1/${t.id}/suspend`, { auth: h.adminAuth });
    await h.call('post', `/tenants/v1/${t.id}/reactivate`, { auth: h.adminAuth });
    expectError(await exchange(dpl.token), 401, 'token_revoked', 'token');
    const read = await publicGet(key);
    expect({ status: read.status, code: read.body.error?.code }).toEqual({ status: 401, code: 'api_key_revoked' });
  });

  it('404 for an unknown tenant; a tenant token cannot suspend its own tenant', async () => {
    expectError(
      await h.call('post', '/tenants/v1/ten_unknown/suspend', { auth: h.adminAuth }),
      404,
      'resource_missing',
      'id',
    );
    expectError(
      await h.call('post', '/tenants/v1/ten_unknown/reactivate', { auth: h.adminAuth }),
      404,
      'resource_missing',
      'id',
    );
    const t = await h.registerTenant();
    expectError(await h.call('post', `/tenants/v1/${t.id}/reactivate`, { auth: t.auth }), 403, 'admin_token_required');
  });
});

it('no tenant token or deployment secret reaches a log line', () => {
  const logs = h.ctx.logLines.join('\n');
  expect(logs).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/);
  expect(logs).not.toMatch(/dpl_[A-Za-z0-9_-]{20,}/);
  expect(logs).not.toMatch(/rk_live_[A-Za-z0-9_-]{20,}/);
});
