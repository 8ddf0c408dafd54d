// POST /keys/v1 under hostile input, the per-org limit and suspension (docs/admin-api.md "API keys"): every refusal
// is a clear envelope naming the param and mints nothing; the limit holds under concurrent requests; a suspended
// tenant (and, through the shared store, the operator CLI for its org) mints nothing.
import { randomUUID } from 'node:crypto';
import { createOrgApiKey, MAX_ACTIVE_KEYS_PER_ORG } from '@risk/common/api-key-store';
import { buildApiKey } from '@risk/common/api-keys';
import { harnessWithTenant, expectError, type AdminHarness, type Tenant } from './harness';

let h: AdminHarness;
let tenant: Tenant;
beforeAll(async () => ({ h, tenant } = await harnessWithTenant('adminapikeysinput')));
afterAll(() => h.close());

const post = (t: Tenant, body: unknown, headers: Record<string, string> = { 'Idempotency-Key': randomUUID() }) =>
  h.call('post', '/keys/v1', { auth: t.auth, body, headers });
const keysOf = (orgId: string) => h.ctx.db.prisma.apiKey.count({ where: { org_id: orgId } });
const DAY = 86_400_000;

describe('refused input mints nothing', () => {
  const valid = { name: 'ci', scopes: ['assets:read'] };
  it.each([
    ['an unknown scope', { ...valid, scopes: ['assets:read', 'root'] }, 'parameter_invalid', 'scopes[1]'],
    ['a scope in another case', { ...valid, scopes: ['Assets:Read'] }, 'parameter_invalid', 'scopes[0]'],
    ['no scope', { ...valid, scopes: [] }, 'parameter_invalid', 'scopes'],
    ['scopes as a string', { ...valid, scopes: 'assets:read' }, 'parameter_invalid', 'scopes'],
    ['a missing name', { scopes: ['assets:read'] }, 'missing_required_param', 'name'],
    ['a blank name', { ...valid, name: '   ' }, 'parameter_invalid', 'name'],
    ['a control character in the name', { ...valid, name: 'ci\u0000x' }, 'parameter_invalid', 'name'],
    ['a name over 100 characters', { ...valid, name: 'n'.repeat(101) }, 'parameter_invalid', 'name'],
    ['an org of its own choosing', { ...valid, org_id: 'org_victim' }, 'parameter_unknown', 'org_id'],
    ['a key of its own choosing', { ...valid, key: 'rk_live_chosen' }, 'parameter_unknown', 'key'],
    ['livemode as a string', { ...valid, livemode: 'false' }, 'parameter_invalid', 'livemode'],
    ['expires_in_days 0', { ...valid, expires_in_days: 0 }, 'parameter_invalid', 'expires_in_days'],
    ['expires_in_days over 365', { ...valid, expires_in_days: 366 }, 'parameter_invalid', 'expires_in_days'],
    ['fractional days', { ...valid, expires_in_days: 1.5 }, 'parameter_invalid_integer', 'expires_in_days'],
    ['a date that is not ISO', { ...valid, expires_at: 'next tuesday' }, 'parameter_invalid', 'expires_at'],
    ['an expiry in the past', { ...valid, expires_at: '2020-01-01T00:00:00Z' }, 'parameter_invalid', 'expires_at'],
    [
      'an expiry over 365 days ahead',
      { ...valid, expires_at: new Date(Date.now() + 366 * DAY).toISOString() },
      'parameter_invalid',
      'expires_at',
    ],
    [
      'both expiry forms',
      { ...valid, expires_in_days: 7, expires_at: new Date(Date.now() + 7 * DAY).toISOString() },
      'parameters_exclusive',
      'expires_at',
    ],
  ])('%s: 400', async (_what, body, code, param) => {
    const before = await keysOf(tenant.org_id);
    expectError(await post(tenant, body), 400, code, param);
    expect(await keysOf(tenant.org_id)).toBe(before);
  });

  it('a body that is not JSON, a JSON array, or a missing or malformed Idempotency-Key: 400, nothing minted', async () => {
    const before = await keysOf(tenant.org_id);
    const raw = await h.call('post', '/keys/v1', {
      auth: tenant.auth,
      headers: { 'Idempotency-Key': randomUUID(), 'Content-Type': 'application/json' },
      body: '{"name":',
    });
    expectError(raw, 400, 'invalid_json');
    expect((await post(tenant, [valid])).status).toBe(400);
    expectError(await post(tenant, valid, {}), 400, 'idempotency_key_missing', 'Idempotency-Key');
    expectError(
      await post(tenant, valid, { 'Idempotency-Key': 'k1' }),
      400,
      'idempotency_key_invalid',
      'Idempotency-Key',
    );
    expect(await keysOf(tenant.org_id)).toBe(before);
    expect(await h.ctx.db.prisma.idempotencyKey.count({ where: { org_id: `tenant:${tenant.id}` } })).toBe(0);
  });

  it('an expiry in days or as a timestamp is stored as given; duplicate scopes are dropped', async () => {
    const inDays = await post(tenant, { ...valid, scopes: ['assets:read', 'assets:read'], expires_in_days: 7 });
    expect(inDays.status).toBe(201);
    expect(inDays.body.scopes).toEqual(['assets:read']);
    expect(Math.abs(Date.parse(inDays.body.expires_at) - (Date.now() + 7 * DAY))).toBeLessThan(60_000);
    const at = new Date(Date.now() + 30 * DAY);
    at.setMilliseconds(0);
    const stamped = await post(tenant, { ...valid, expires_at: at.toISOString().replace('.000Z', '+00:00') });
    expect(stamped.status).toBe(201);
    expect(stamped.body.expires_at).toBe(at.toISOString());
  });

  it.each([
    ['SQL in the id', '%27%20OR%201%3D1--', 404, 'resource_missing'],
    ['an encoded path traversal', '..%2F..%2Ftenants', 404, 'resource_missing'],
    ['the longest id', 'k'.repeat(255), 404, 'resource_missing'],
    ['an id over 255 characters', 'k'.repeat(256), 400, 'parameter_invalid'],
    ['a NUL byte (Postgres text cannot hold it)', 'key_%00', 400, 'parameter_invalid'],
  ])('%s: GET and DELETE answer %s, nothing revoked', async (_what, id, status, code) => {
    expectError(await h.call('get', `/keys/v1/${id}`, { auth: tenant.auth }), status, code, 'id');
    expectError(await h.call('delete', `/keys/v1/${id}`, { auth: tenant.auth }), status, code, 'id');
    expect(await h.ctx.db.prisma.apiKey.count({ where: { org_id: tenant.org_id, revoked_at: { not: null } } })).toBe(0);
  });
});

describe('the per-org limit', () => {
  it(`${MAX_ACTIVE_KEYS_PER_ORG} active keys: the next is 400 api_key_limit_reached; revoked, expired and deployment keys do not count`, async () => {
    const full = await h.registerTenant();
    const rows = Array.from(
      { length: MAX_ACTIVE_KEYS_PER_ORG - 1 },
      () => buildApiKey({ org_id: full.org_id, scopes: ['assets:read'], livemode: true }).row,
    );
    const extra = [
      { ...buildApiKey({ org_id: full.org_id, scopes: ['assets:read'], livemode: true }).row, revoked_at: new Date() },
      {
        ...buildApiKey({ org_id: full.org_id, scopes: ['assets:read'], livemode: true }).row,
        expires_at: new Date(Date.now() - 1000),
      },
    ];
    await h.ctx.db.prisma.apiKey.createMany({ data: [...rows, ...extra] });
    const dt = await h.call('post', `/tenants/v1/${full.id}/deployment-token`, { auth: h.adminAuth, body: {} });
    expect((await h.call('get', '/deploy/v1/credentials', { query: { token: dt.body.token } })).status).toBe(200);
    // three at once for the last place: the per-org lock lets exactly one through
    const racing = await Promise.all([1, 2, 3].map((n) => post(full, { name: `race ${n}`, scopes: ['assets:read'] })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 400, 400]);
    for (const r of racing.filter((x) => x.status === 400)) expectError(r, 400, 'api_key_limit_reached');
    // a refused mint releases its Idempotency-Key: only the winner's answer is kept
    const claims = await h.ctx.db.prisma.idempotencyKey.findMany({ where: { org_id: `tenant:${full.id}` } });
    expect(claims.map((c) => [c.status, c.response_status])).toEqual([['completed', 201]]);
    // the CLI's path (the same store function) is held to the same limit
    await expect(
      createOrgApiKey(h.ctx.db.prisma, { org_id: full.org_id, scopes: ['assets:read'], livemode: false }),
    ).rejects.toMatchObject({ code: 'api_key_limit_reached' });
    const winner = racing.find((r) => r.status === 201)!;
    await h.call('delete', `/keys/v1/${winner.body.id}`, { auth: full.auth });
    expect((await post(full, { name: 'after revoke', scopes: ['assets:read'] })).status).toBe(201);
  });
});

describe('a suspended tenant', () => {
  it('cannot mint (403 tenant_suspended), through the API or the shared store, and mints again once reactivated', async () => {
    const t = await h.registerTenant();
    expect((await h.call('post', `/tenants/v1/${t.id}/suspend`, { auth: h.adminAuth })).status).toBe(200);
    expectError(await post(t, { name: 'x', scopes: ['assets:read'] }), 403, 'tenant_suspended');
    await expect(
      createOrgApiKey(h.ctx.db.prisma, { org_id: t.org_id, scopes: ['assets:read'], livemode: true }),
    ).rejects.toMatchObject({ code: 'tenant_suspended' });
    expect(await keysOf(t.org_id)).toBe(0);
    await h.call('post', `/tenants/v1/${t.id}/reactivate`, { auth: h.adminAuth });
    expect((await post(t, { name: 'x', scopes: ['assets:read'] })).status).toBe(201);
  });
});
