// API keys of a suspended admin tenant's org are refused (403 tenant_suspended) by the key look-up itself, one
// query joined to tenants by org_id (docs/security.md "Tenant credentials and firewall tokens"). Orgs that no
// tenant owns are unaffected; the in-process key cache bounds how long a suspension takes to be seen.
import request from 'supertest';
import { ApiKeyAuthenticator } from '@risk/common/http';
import { ID_PREFIXES, newId } from '@risk/db';
import { createHarness, postJson, signalBody, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('tenantsuspension');
});
afterAll(() => h.close());

/** A tenant row as the admin API writes it (POST /tenants/v1/register) owning a fresh org. */
async function tenantOrg(status = 'active') {
  const orgId = newId(ID_PREFIXES.org);
  const tenant = await h.ctx.db.prisma.tenant.create({
    data: { id: newId(ID_PREFIXES.tenant), name: `t-${orgId}`, admin_email: 'a@example.com', org_id: orgId, status },
  });
  return { tenant, orgId, key: await h.mintKey({ orgId }) };
}
const setStatus = (id: string, status: string) => h.ctx.db.prisma.tenant.update({ where: { id }, data: { status } });
const get = (key: string, app = h.app) => request(app).get('/v1/assets?limit=1').set('Authorization', `Bearer ${key}`);

it('a suspended tenant’s keys are 403 tenant_suspended on reads and writes; a write stores nothing', async () => {
  const { tenant, orgId, key } = await tenantOrg();
  expect((await get(key)).status).toBe(200);
  await setStatus(tenant.id, 'suspended');
  const read = await get(key);
  expect(read.status).toBe(403);
  expect(read.body.error).toMatchObject({ type: 'permission_error', code: 'tenant_suspended' });
  expect(read.body.error.message).toMatch(/suspended/);
  const write = await postJson(h, '/v1/signals', signalBody(orgId), key);
  expect(write.status).toBe(403);
  expect(write.body.error.code).toBe('tenant_suspended');
  expect(await h.ctx.db.prisma.signal.count({ where: { org_id: orgId } })).toBe(0);
  expect(await h.ctx.db.prisma.idempotencyKey.count({ where: { org_id: orgId } })).toBe(0);
  // reactivated: the same key works again
  await setStatus(tenant.id, 'active');
  expect((await get(key)).status).toBe(200);
});

it('keys of orgs no tenant owns, and of other tenants, are unaffected', async () => {
  const suspended = await tenantOrg('suspended');
  const active = await tenantOrg();
  expect((await get(suspended.key)).status).toBe(403);
  expect((await get(active.key)).status).toBe(200);
  expect((await get(h.key)).status).toBe(200);
});

it('a revoked or expired key keeps its own code while its tenant is suspended', async () => {
  const { tenant, orgId } = await tenantOrg('suspended');
  const expired = await h.mintKey({ orgId, expiresAt: new Date(Date.now() - 1000) });
  expect((await get(expired)).body.error.code).toBe('api_key_expired');
  const revoked = await h.mintKey({ orgId });
  await h.ctx.db.prisma.apiKey.updateMany({
    where: { org_id: orgId, revoked_at: null },
    data: { revoked_at: new Date() },
  });
  expect((await get(revoked)).body.error.code).toBe('api_key_revoked');
  // reactivation does not bring a revoked key back
  await setStatus(tenant.id, 'active');
  expect((await get(revoked)).body.error.code).toBe('api_key_revoked');
});

it('with the key cache on, a suspension is seen once the cached entry is older than cacheTtlMs', async () => {
  const cached = new ApiKeyAuthenticator(h.ctx.db.prisma, { cacheTtlMs: 300, lastUsedFlushMs: 60_000 });
  const app = h.appWith({ authenticator: cached });
  try {
    const { tenant, key } = await tenantOrg();
    expect((await get(key, app)).status).toBe(200);
    await setStatus(tenant.id, 'suspended');
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await get(key, app)).status).toBe(403);
  } finally {
    await cached.close();
  }
});
