// The SDK against the real admin API (services/admin-api/test/harness.ts: the app from its factory, a scratch
// database) on an ephemeral port: admin and tenant tokens, list paging both ways, typed errors.
import { createAdminHarness, type AdminHarness } from '@risk/admin-api/test/harness';
import { AuthenticationError, createAdminClient, PermissionError, type AdminPaths, type RiskClient } from '../src';
import { listen, type Listening } from './servers';
import { scaledByLoad } from '@risk/testing';

jest.setTimeout(scaledByLoad(60_000));

let h: AdminHarness;
let api: Listening;
let admin: RiskClient<AdminPaths>;

beforeAll(async () => {
  h = await createAdminHarness('sdkadmin');
  api = await listen(h.app);
  admin = createAdminClient({ baseUrl: api.url, token: h.ctx.config.ADMIN_API_TOKEN! });
});
afterAll(async () => {
  await api.close();
  await h.close();
});

test('registers tenants and pages through them both ways', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) {
    const tenant = await admin.post('/tenants/v1/register', {
      body: { name: `sdk-tenant-${i}`, admin_email: `secops@sdk-${i}.example` },
    });
    expect(tenant.tenant_token.token).toEqual(expect.any(String));
    ids.push(tenant.id);
  }
  const forward: string[] = [];
  for await (const tenant of admin.list('/tenants/v1', { params: { query: { limit: 2 } } })) forward.push(tenant.id);
  expect(forward).toEqual([...ids].reverse());

  const backward: string[] = [];
  for await (const tenant of admin.list('/tenants/v1', { params: { query: { limit: 2, ending_before: ids[0] } } }))
    backward.push(tenant.id);
  expect(backward).toEqual(ids.slice(1));
});

test('a tenant token client reaches tenant routes; the wrong credential is a typed error', async () => {
  const registered = await admin.post('/tenants/v1/register', {
    body: { name: 'sdk-tenant-fw', admin_email: 'secops@sdk-fw.example' },
  });
  const tenant = createAdminClient({ baseUrl: api.url, token: registered.tenant_token.token! });
  await expect(tenant.get('/firewalls/v1')).resolves.toMatchObject({ object: 'list', data: [] });
  await expect(tenant.get('/tenants/v1')).rejects.toMatchObject({
    constructor: PermissionError,
    status: 403,
    code: 'admin_token_required',
    request_id: expect.stringMatching(/^req_/),
  });
  const nobody = createAdminClient({ baseUrl: api.url, token: 'not-a-token' });
  await expect(nobody.get('/tenants/v1')).rejects.toBeInstanceOf(AuthenticationError);
});

test("a tenant mints, lists and revokes its org's API keys through the typed client (Idempotency-Key sent for it)", async () => {
  const registered = await admin.post('/tenants/v1/register', {
    body: { name: 'sdk-tenant-keys', admin_email: 'secops@sdk-keys.example' },
  });
  const tenant = createAdminClient({ baseUrl: api.url, token: registered.tenant_token.token! });
  const created = await tenant.post('/keys/v1', {
    body: { name: 'ci', scopes: ['assets:read'], livemode: true, expires_in_days: 30 },
  });
  expect(created.key).toMatch(/^rk_live_/);
  const listed: string[] = [];
  for await (const key of tenant.list('/keys/v1')) {
    expect(key).not.toHaveProperty('key');
    listed.push(key.id);
  }
  expect(listed).toEqual([created.id]);
  await expect(tenant.delete('/keys/v1/{id}', { params: { path: { id: created.id } } })).resolves.toMatchObject({
    status: 'revoked',
  });
});

test('a body field with a server default may be left out (the generated types mark it optional)', async () => {
  const registered = await admin.post('/tenants/v1/register', {
    body: { name: 'sdk-tenant-defaults', admin_email: 'secops@sdk-defaults.example' },
  });
  // `livemode` (default true) and `expires_in_hours` (default 168) are omitted: this file must compile without them
  const tenant = createAdminClient({ baseUrl: api.url, token: registered.tenant_token.token! });
  const key = await tenant.post('/keys/v1', { body: { name: 'defaults', scopes: ['assets:read'] } });
  expect(key.key).toMatch(/^rk_live_/);
  const token = await admin.post('/tenants/v1/{id}/deployment-token', {
    params: { path: { id: registered.id } },
    body: {},
  });
  const hours = (Date.parse(token.expires_at) - Date.parse(token.created)) / 3_600_000;
  expect(Math.round(hours)).toBe(168);
});
