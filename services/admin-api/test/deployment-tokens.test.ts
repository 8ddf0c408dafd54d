// Deployment tokens: create / list (never the secret) / revoke, and GET /deploy/v1/credentials: a hashed,
// scoped API key per exchange; expired, exhausted and revoked tokens are 401; revoking revokes minted keys.
import { sha256Hex } from '@risk/common/crypto';
import { harnessWithTenant, expectError, type AdminHarness, type Tenant } from './harness';

let h: AdminHarness;
let tenant: Tenant;
beforeAll(
  async () =>
    ({ h, tenant } = await harnessWithTenant('admindeploy', {
      env: { PUBLIC_API_BASE_URL: 'https://api.risk.example' },
    })),
);
afterAll(() => h.close());

const create = (body?: unknown, tenantId = tenant.id) =>
  h.call('post', `/tenants/v1/${tenantId}/deployment-token`, { auth: h.adminAuth, body });
const exchange = (token: string) => h.call('get', '/deploy/v1/credentials', { query: { token } });

describe('POST /tenants/v1/{id}/deployment-token', () => {
  it('201 with the secret once, a 168 h default expiry and no use limit', async () => {
    const res = await create({});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'deployment_token',
      tenant_id: tenant.id,
      name: null,
      status: 'active',
      max_uses: null,
      use_count: 0,
      revoked_at: null,
    });
    expect(res.body.token).toMatch(/^dpl_[A-Za-z0-9_-]{20,}$/);
    expect(res.body.token_prefix).toBe(res.body.token.slice(0, 12));
    const hours = (new Date(res.body.expires_at).getTime() - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(167.9);
    expect(hours).toBeLessThanOrEqual(168);
    const row = await h.ctx.db.prisma.deploymentToken.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.token_hash).toBe(sha256Hex(res.body.token));
    expect(JSON.stringify(row)).not.toContain(res.body.token);
  });

  it('takes name, expires_in_hours and max_uses', async () => {
    const res = await create({ name: 'laptops', expires_in_hours: 2, max_uses: 5 });
    expect(res.body).toMatchObject({ name: 'laptops', max_uses: 5 });
    expect((new Date(res.body.expires_at).getTime() - Date.now()) / 3600_000).toBeCloseTo(2, 1);
  });

  it.each([
    ['name empty', { name: '' }, 'parameter_invalid', 'name'],
    ['expires_in_hours zero', { expires_in_hours: 0 }, 'parameter_invalid', 'expires_in_hours'],
    ['expires_in_hours above a year', { expires_in_hours: 8761 }, 'parameter_invalid', 'expires_in_hours'],
    ['expires_in_hours fractional', { expires_in_hours: 1.5 }, 'parameter_invalid_integer', 'expires_in_hours'],
    ['max_uses zero', { max_uses: 0 }, 'parameter_invalid', 'max_uses'],
    ['max_uses a string', { max_uses: '5' }, 'parameter_invalid', 'max_uses'],
    ['unknown field', { scopes: ['x'] }, 'parameter_unknown', 'scopes'],
  ])('400 for %s', async (_label, body, code, param) => {
    expectError(await create(body), 400, code, param);
  });

  it('404 for an unknown tenant', async () => {
    expectError(await create({}, 'ten_unknown'), 404, 'resource_missing', 'id');
  });
});

describe('GET /tenants/v1/{id}/deployment-tokens', () => {
  it('lists the tenant tokens with their status and never the secret', async () => {
    const own = await h.registerTenant();
    const a = await create({ name: 'a' }, own.id);
    const b = await create({ name: 'b', max_uses: 1 }, own.id);
    await exchange(b.body.token);
    const res = await h.call('get', `/tenants/v1/${own.id}/deployment-tokens`, { auth: h.adminAuth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, url: `/tenants/v1/${own.id}/deployment-tokens` });
    expect(res.body.data.map((t: { id: string; status: string }) => [t.id, t.status])).toEqual([
      [b.body.id, 'exhausted'],
      [a.body.id, 'active'],
    ]);
    for (const t of res.body.data) expect(t).not.toHaveProperty('token');
    expect(res.text).not.toContain(a.body.token);
    expect(res.text).not.toContain(b.body.token);
    // paginates
    const page = await h.call('get', `/tenants/v1/${own.id}/deployment-tokens`, {
      auth: h.adminAuth,
      query: { limit: '1' },
    });
    expect(page.body).toMatchObject({ has_more: true, data: [{ id: b.body.id }] });
  });

  it('404 for an unknown tenant', async () => {
    expectError(
      await h.call('get', '/tenants/v1/ten_unknown/deployment-tokens', { auth: h.adminAuth }),
      404,
      'resource_missing',
      'id',
    );
  });
});

describe('GET /deploy/v1/credentials', () => {
  it('returns org_id, the public API base URL and a hashed key with the five deployment scopes', async () => {
    const dt = await create({ name: 'fleet' });
    const res = await exchange(dt.body.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'deployment_credentials',
      tenant_id: tenant.id,
      org_id: tenant.org_id,
      api_base_url: 'https://api.risk.example',
    });
    expect(res.body.api_key).toMatchObject({
      livemode: true,
      scopes: ['signals:write', 'signals:read', 'assets:read', 'threats:read', 'artifacts:read'],
    });
    expect(res.body.api_key.key).toMatch(/^rk_live_/);
    const row = await h.ctx.db.prisma.apiKey.findUniqueOrThrow({
      where: { key_hash: sha256Hex(res.body.api_key.key) },
    });
    expect(row).toMatchObject({
      id: res.body.api_key.id,
      org_id: tenant.org_id,
      deployment_token_id: dt.body.id,
      revoked_at: null,
    });
    expect(JSON.stringify(row)).not.toContain(res.body.api_key.key);
    // each exchange mints a different key and counts a use
    const again = await exchange(dt.body.token);
    expect(again.body.api_key.key).not.toBe(res.body.api_key.key);
    expect(await h.ctx.db.prisma.deploymentToken.findUniqueOrThrow({ where: { id: dt.body.id } })).toMatchObject({
      use_count: 2,
      last_used_at: expect.any(Date),
    });
  });

  it('400 when the token is missing, empty or repeated', async () => {
    expectError(await h.call('get', '/deploy/v1/credentials'), 400, 'missing_required_param', 'token');
    expectError(await exchange(''), 400, 'missing_required_param', 'token');
    expectError(
      await h.call('get', '/deploy/v1/credentials?token=dpl_a&token=dpl_b'),
      400,
      'parameter_invalid',
      'token',
    );
  });

  it('401 token_invalid for an unknown token', async () => {
    const err = expectError(await exchange('dpl_not_a_real_token_at_all'), 401, 'token_invalid', 'token');
    expect(err.type).toBe('authentication_error');
  });

  it('401 token_expired once the token has expired', async () => {
    const dt = await create({ expires_in_hours: 1 });
    await h.ctx.db.prisma.deploymentToken.update({
      where: { id: dt.body.id },
      data: { expires_at: new Date(Date.now() - 1000) },
    });
    expectError(await exchange(dt.body.token), 401, 'token_expired', 'token');
    const listed = await h.call('get', `/tenants/v1/${tenant.id}/deployment-tokens`, {
      auth: h.adminAuth,
      query: { limit: '100' },
    });
    expect(listed.body.data.find((t: { id: string }) => t.id === dt.body.id).status).toBe('expired');
  });

  it('401 token_exhausted after max_uses exchanges, even when they race', async () => {
    const dt = await create({ max_uses: 2 });
    const results = await Promise.all([1, 2, 3, 4].map(() => exchange(dt.body.token)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 401, 401]);
    for (const r of results.filter((x) => x.status === 401)) expect(r.body.error.code).toBe('token_exhausted');
    expect(await h.ctx.db.prisma.apiKey.count({ where: { deployment_token_id: dt.body.id } })).toBe(2);
  });
});

describe('DELETE /tenants/v1/{id}/deployment-token/{token_id}', () => {
  it('revokes the token and every key minted from it; the token then answers 401 token_revoked', async () => {
    const dt = await create({ name: 'to-revoke' });
    const k1 = await exchange(dt.body.token);
    const k2 = await exchange(dt.body.token);
    const other = await create({ name: 'unrelated' });
    const k3 = await exchange(other.body.token);

    const res = await h.call('delete', `/tenants/v1/${tenant.id}/deployment-token/${dt.body.id}`, {
      auth: h.adminAuth,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'deployment_token',
      id: dt.body.id,
      status: 'revoked',
      revoked_at: expect.any(String),
    });
    expect(res.body).not.toHaveProperty('token');
    for (const k of [k1, k2]) {
      expect(
        (await h.ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: k.body.api_key.id } })).revoked_at,
      ).not.toBeNull();
    }
    expect(
      (await h.ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: k3.body.api_key.id } })).revoked_at,
    ).toBeNull();
    expectError(await exchange(dt.body.token), 401, 'token_revoked', 'token');
    // revoking twice is idempotent and keeps the first revocation time
    const twice = await h.call('delete', `/tenants/v1/${tenant.id}/deployment-token/${dt.body.id}`, {
      auth: h.adminAuth,
    });
    expect(twice.status).toBe(200);
    expect(twice.body.revoked_at).toBe(res.body.revoked_at);
  });

  it('404 for an unknown token, another tenant’s token, or an unknown tenant', async () => {
    const dt = await create({});
    const other = await h.registerTenant();
    expectError(
      await h.call('delete', `/tenants/v1/${tenant.id}/deployment-token/dpt_unknown`, { auth: h.adminAuth }),
      404,
      'resource_missing',
      'token_id',
    );
    expectError(
      await h.call('delete', `/tenants/v1/${other.id}/deployment-token/${dt.body.id}`, { auth: h.adminAuth }),
      404,
      'resource_missing',
      'token_id',
    );
    expectError(
      await h.call('delete', `/tenants/v1/ten_unknown/deployment-token/${dt.body.id}`, { auth: h.adminAuth }),
      404,
      'resource_missing',
      'id',
    );
    expect((await exchange(dt.body.token)).status).toBe(200);
  });
});

it('the deployment token secret never reaches a log line (the access log drops query strings)', () => {
  expect(h.ctx.logLines.some((l) => l.includes('/deploy/v1/credentials'))).toBe(true);
  expect(h.ctx.logLines.join('\n')).not.toMatch(/dpl_[A-Za-z0-9_-]{8,}/);
  expect(h.ctx.logLines.join('\n')).not.toMatch(/rk_live_/);
});
