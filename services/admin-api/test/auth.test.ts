// Credentials on every route of the route table: 401 for a missing, malformed, expired or wrongly signed
// token; 403 for the other kind of token; 401 for a revoked token or one without an id; 403 tenant_suspended
// for a token of a suspended tenant.
import { randomBytes } from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import { createTenantTokenSigner } from '../src/auth';
import { adminRouteTable } from '../src/routes';
import { harnessWithTenant, expectError, type AdminHarness, type Method, type Tenant } from './harness';

// the route table the app serves (method, documented path, credential, summary)
const ADMIN_ROUTE_TABLE = adminRouteTable();

let h: AdminHarness;
let tenant: Tenant;
beforeAll(async () => ({ h, tenant } = await harnessWithTenant('adminauth')));
afterAll(() => h.close());

const concrete = (path: string) => path.replace(/\{(\w+)\}/g, (_m, name: string) => `x_${name}_000000000000`);
const adminRoutes = ADMIN_ROUTE_TABLE.filter((r) => r.auth === 'admin').map(
  (r) => [r.method.toUpperCase(), r.path, r.method, concrete(r.path)] as const,
);
const tenantRoutes = ADMIN_ROUTE_TABLE.filter((r) => r.auth === 'tenant').map(
  (r) => [r.method.toUpperCase(), r.path, r.method, concrete(r.path)] as const,
);
const allCredentialed = [...adminRoutes, ...tenantRoutes];
const inOneDay = () => new Date(Date.now() + 86400_000);

it('the route table has admin and tenant routes to check', () => {
  expect(adminRoutes.length).toBe(11);
  expect(tenantRoutes.length).toBe(32);
});

describe.each(allCredentialed)('%s %s', (_m, _p, method, path) => {
  const call = (auth: string | null) =>
    h.call(method as Method, path, { auth, body: method === 'post' || method === 'put' ? {} : undefined });

  it('401 token_missing without an Authorization header or with another scheme', async () => {
    const none = expectError(await call(null), 401, 'token_missing');
    expect(none.type).toBe('authentication_error');
    expectError(await call(`Basic ${Buffer.from('admin:x').toString('base64')}`), 401, 'token_missing');
    expectError(await call('Bearer'), 401, 'token_missing');
  });

  it('401 token_invalid for a malformed token or a JWT signed with another key', async () => {
    expectError(await call('Bearer not-a-jwt'), 401, 'token_invalid');
    const foreign = createTenantTokenSigner(randomBytes(32).toString('hex'));
    const forged = await foreign.sign({ tenantId: tenant.id, tokenId: 'ttk_forged', expiresAt: inOneDay() });
    expectError(await call(`Bearer ${forged}`), 401, 'token_invalid');
  });

  it('401 token_expired for an expired tenant token', async () => {
    const signer = createTenantTokenSigner(h.ctx.config.SECRETS_KEY!);
    const token = await signer.sign({
      tenantId: tenant.id,
      tokenId: 'ttk_expired',
      expiresAt: new Date(Date.now() - 86400_000),
    });
    expectError(await call(`Bearer ${token}`), 401, 'token_expired');
  });
});

describe.each(adminRoutes)('admin route %s %s', (_m, _p, method, path) => {
  it('403 admin_token_required for a tenant token', async () => {
    const err = expectError(
      await h.call(method as Method, path, { auth: tenant.auth, body: method === 'post' ? {} : undefined }),
      403,
      'admin_token_required',
    );
    expect(err.type).toBe('permission_error');
  });
});

describe.each(tenantRoutes)('tenant route %s %s', (_m, _p, method, path) => {
  it('403 tenant_token_required for the admin token', async () => {
    const err = expectError(
      await h.call(method as Method, path, {
        auth: h.adminAuth,
        body: method === 'post' || method === 'put' ? {} : undefined,
      }),
      403,
      'tenant_token_required',
    );
    expect(err.type).toBe('permission_error');
  });
});

describe('tenant token details', () => {
  it('a token with the right key but a foreign audience or an alg=none token is 401 token_invalid', async () => {
    const { createHmac } = await import('node:crypto');
    const { decodeKey } = await import('@risk/common/crypto');
    const key = createHmac('sha256', decodeKey(h.ctx.config.SECRETS_KEY!)!)
      .update('admin-api tenant-token v1')
      .digest();
    const wrongAudience = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(tenant.id)
      .setIssuer('risk-intel-admin')
      .setAudience('someone-else')
      .setExpirationTime('1h')
      .sign(key);
    expectError(await h.call('get', '/firewalls/v1', { auth: `Bearer ${wrongAudience}` }), 401, 'token_invalid');
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const unsigned = `${b64({ alg: 'none' })}.${b64({ sub: tenant.id, iss: 'risk-intel-admin', aud: 'risk-intel-tenant', exp: Math.floor(Date.now() / 1000) + 3600 })}.`;
    expectError(await h.call('get', '/firewalls/v1', { auth: `Bearer ${unsigned}` }), 401, 'token_invalid');
  });

  it('the admin token must match exactly (a prefix or a longer string is not the admin token)', async () => {
    const admin = h.ctx.config.ADMIN_API_TOKEN!;
    expectError(await h.call('get', '/tenants/v1', { auth: `Bearer ${admin.slice(0, -1)}` }), 401, 'token_invalid');
    expectError(await h.call('get', '/tenants/v1', { auth: `Bearer ${admin}x` }), 401, 'token_invalid');
    expect((await h.call('get', '/tenants/v1', { auth: `bearer  ${admin}` })).status).toBe(200);
  });

  it('a token of a suspended tenant is 403 tenant_suspended, and works again once the tenant is reactivated', async () => {
    const other = await h.registerTenant();
    expect((await h.call('get', '/firewalls/v1', { auth: other.auth })).status).toBe(200);
    expect((await h.call('post', `/tenants/v1/${other.id}/suspend`, { auth: h.adminAuth })).status).toBe(200);
    const err = expectError(await h.call('get', '/firewalls/v1', { auth: other.auth }), 403, 'tenant_suspended');
    expect(err.type).toBe('permission_error');
    expect((await h.call('post', `/tenants/v1/${other.id}/reactivate`, { auth: h.adminAuth })).status).toBe(200);
    expect((await h.call('get', '/firewalls/v1', { auth: other.auth })).status).toBe(200);
  });

  it('a token whose tenant no longer exists is 401 token_revoked', async () => {
    const signer = createTenantTokenSigner(h.ctx.config.SECRETS_KEY!);
    const token = await signer.sign({ tenantId: 'ten_does_not_exist', tokenId: 'ttk_unknown', expiresAt: inOneDay() });
    expectError(await h.call('get', '/policies/v1/url-filter', { auth: `Bearer ${token}` }), 401, 'token_revoked');
    // a deleted tenant takes its token rows with it
    const gone = await h.registerTenant();
    await h.ctx.db.prisma.tenant.delete({ where: { id: gone.id } });
    expectError(await h.call('get', '/policies/v1/url-filter', { auth: gone.auth }), 401, 'token_revoked');
  });

  it('a correctly signed token without an id (signed before tokens had ids) is 401 token_revoked', async () => {
    const { createHmac } = await import('node:crypto');
    const { decodeKey } = await import('@risk/common/crypto');
    const key = createHmac('sha256', decodeKey(h.ctx.config.SECRETS_KEY!)!)
      .update('admin-api tenant-token v1')
      .digest();
    const legacy = await new SignJWT({ typ: 'tenant' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(tenant.id)
      .setIssuer('risk-intel-admin')
      .setAudience('risk-intel-tenant')
      .setExpirationTime('1h')
      .sign(key);
    expectError(await h.call('get', '/firewalls/v1', { auth: `Bearer ${legacy}` }), 401, 'token_revoked');
  });

  it("a token naming another tenant's token id is 401 token_revoked", async () => {
    const other = await h.registerTenant();
    const otherTokenId = decodeJwt(other.token).jti!;
    const signer = createTenantTokenSigner(h.ctx.config.SECRETS_KEY!);
    const token = await signer.sign({ tenantId: tenant.id, tokenId: otherTokenId, expiresAt: inOneDay() });
    expectError(await h.call('get', '/firewalls/v1', { auth: `Bearer ${token}` }), 401, 'token_revoked');
  });
});
