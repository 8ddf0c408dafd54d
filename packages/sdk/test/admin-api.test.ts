// The SDK against the real admin API (services/admin-api/test/harness.ts: the app from its factory, a scratch
// database) on an ephemeral port: admin and tenant tokens, list paging both ways, typed errors.
import { createAdminHarness, type AdminHarness } from '@risk/admin-api/test/harness';
import { AuthenticationError, createAdminClient, PermissionError, type AdminPaths, type RiskClient } from '../src';
import { listen, type Listening } from './servers';

jest.setTimeout(60_000);

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
