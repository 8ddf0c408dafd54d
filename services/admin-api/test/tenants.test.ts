// Tenants: register (validation per field, 409 duplicate name), list with cursor pagination, retrieve,
// mint a tenant token.
import { decodeJwt } from 'jose';
import { createAdminHarness, expectError, unique, type AdminHarness } from './harness';

let h: AdminHarness;
beforeAll(async () => {
  h = await createAdminHarness('admintenants');
});
afterAll(() => h.close());

const register = (body: unknown) => h.call('post', '/tenants/v1/register', { auth: h.adminAuth, body });

describe('POST /tenants/v1/register', () => {
  it('201 with the tenant and a 30-day tenant token whose sub is the tenant id', async () => {
    const name = unique('acme');
    const res = await register({ name: `  ${name} `, admin_email: 'SecOps@Acme.Example' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'tenant', name, admin_email: 'secops@acme.example', status: 'active' });
    expect(res.body.id).toMatch(/^ten_/);
    expect(res.body.org_id).toMatch(/^org_/);
    expect(res.body.tenant_token).toMatchObject({ object: 'tenant_token', tenant_id: res.body.id });
    const claims = decodeJwt(res.body.tenant_token.token);
    expect(claims.sub).toBe(res.body.id);
    const days = ((claims.exp as number) * 1000 - Date.now()) / 86400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect(new Date(res.body.tenant_token.expires_at).getTime()).toBe((claims.exp as number) * 1000);
    // the token works on a tenant route
    expect((await h.call('get', '/firewalls/v1', { auth: `Bearer ${res.body.tenant_token.token}` })).status).toBe(200);
  });

  it('409 conflict_error resource_already_exists for a duplicate name', async () => {
    const name = unique('dup');
    expect((await register({ name, admin_email: 'a@example.com' })).status).toBe(201);
    const err = expectError(
      await register({ name, admin_email: 'b@example.com' }),
      409,
      'resource_already_exists',
      'name',
    );
    expect(err.type).toBe('conflict_error');
  });

  it.each([
    ['name missing', { admin_email: 'a@example.com' }, 'missing_required_param', 'name'],
    ['name empty', { name: '  ', admin_email: 'a@example.com' }, 'parameter_invalid', 'name'],
    ['name not a string', { name: 7, admin_email: 'a@example.com' }, 'parameter_invalid', 'name'],
    ['name too long', { name: 'x'.repeat(101), admin_email: 'a@example.com' }, 'parameter_invalid', 'name'],
    ['admin_email missing', { name: 'valid-name' }, 'missing_required_param', 'admin_email'],
    ['admin_email invalid', { name: 'valid-name', admin_email: 'not-an-email' }, 'parameter_invalid', 'admin_email'],
    ['unknown field', { name: 'valid-name', admin_email: 'a@example.com', plan: 'gold' }, 'parameter_unknown', 'plan'],
  ])('400 for %s', async (_label, body, code, param) => {
    const err = expectError(await register(body), 400, code, param);
    expect(err.type).toBe('invalid_request_error');
  });
});

describe('GET /tenants/v1', () => {
  it('lists tenants newest first with cursor pagination', async () => {
    const names = [unique('page'), unique('page'), unique('page')];
    for (const name of names) await h.registerTenant(name);
    const first = await h.call('get', '/tenants/v1', { auth: h.adminAuth, query: { limit: '2' } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'list', url: '/tenants/v1', has_more: true });
    expect(first.body.data.map((t: { name: string }) => t.name)).toEqual([names[2], names[1]]);
    expect(first.body.data[0]).not.toHaveProperty('tenant_token');
    const next = await h.call('get', '/tenants/v1', {
      auth: h.adminAuth,
      query: { limit: '2', starting_after: first.body.data[1].id },
    });
    expect(next.body.data[0].name).toBe(names[0]);
    const back = await h.call('get', '/tenants/v1', {
      auth: h.adminAuth,
      query: { limit: '1', ending_before: first.body.data[1].id },
    });
    expect(back.body.data.map((t: { name: string }) => t.name)).toEqual([names[2]]);
  });

  it('400 for an invalid limit or an unknown cursor', async () => {
    expectError(
      await h.call('get', '/tenants/v1', { auth: h.adminAuth, query: { limit: '0' } }),
      400,
      'parameter_invalid',
      'limit',
    );
    expectError(
      await h.call('get', '/tenants/v1', { auth: h.adminAuth, query: { limit: 'ten' } }),
      400,
      'parameter_invalid',
      'limit',
    );
    const cursor = await h.call('get', '/tenants/v1', { auth: h.adminAuth, query: { starting_after: 'ten_nope' } });
    expect(cursor.status).toBe(400);
    expect(cursor.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'resource_missing',
      param: 'starting_after',
    });
  });
});

describe('GET /tenants/v1/{id}', () => {
  it('retrieves a tenant without its token', async () => {
    const t = await h.registerTenant();
    const res = await h.call('get', `/tenants/v1/${t.id}`, { auth: h.adminAuth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'tenant', id: t.id, org_id: t.org_id, name: t.name });
    expect(res.text).not.toContain(t.token);
  });

  it('404 resource_missing for an unknown id', async () => {
    const err = expectError(
      await h.call('get', '/tenants/v1/ten_unknown', { auth: h.adminAuth }),
      404,
      'resource_missing',
      'id',
    );
    expect(err.type).toBe('not_found_error');
  });
});

describe('POST /tenants/v1/{id}/tokens', () => {
  it('201 mints a new working token, with expires_in_days honoured', async () => {
    const t = await h.registerTenant();
    const res = await h.call('post', `/tenants/v1/${t.id}/tokens`, { auth: h.adminAuth, body: { expires_in_days: 2 } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'tenant_token', tenant_id: t.id });
    expect(res.body.token).not.toBe(t.token);
    const days = (new Date(res.body.expires_at).getTime() - Date.now()) / 86400_000;
    expect(days).toBeGreaterThan(1.9);
    expect(days).toBeLessThanOrEqual(2);
    expect((await h.call('get', '/policies/v1/url-filter', { auth: `Bearer ${res.body.token}` })).status).toBe(200);
    // no body at all: the configured default
    const dflt = await h.call('post', `/tenants/v1/${t.id}/tokens`, { auth: h.adminAuth });
    expect(dflt.status).toBe(201);
    expect((new Date(dflt.body.expires_at).getTime() - Date.now()) / 86400_000).toBeGreaterThan(29.9);
  });

  it.each([
    ['zero days', { expires_in_days: 0 }, 'parameter_invalid'],
    ['more than a year', { expires_in_days: 366 }, 'parameter_invalid'],
    ['a fraction', { expires_in_days: 1.5 }, 'parameter_invalid_integer'],
    ['a string', { expires_in_days: '3' }, 'parameter_invalid'],
  ])('400 for expires_in_days as %s', async (_label, body, code) => {
    const t = await h.registerTenant();
    expectError(
      await h.call('post', `/tenants/v1/${t.id}/tokens`, { auth: h.adminAuth, body }),
      400,
      code,
      'expires_in_days',
    );
  });

  it('404 for an unknown tenant', async () => {
    expectError(
      await h.call('post', '/tenants/v1/ten_unknown/tokens', { auth: h.adminAuth, body: {} }),
      404,
      'resource_missing',
      'id',
    );
  });
});
