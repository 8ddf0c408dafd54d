// How a deployment token may travel to /deploy/v1/credentials and what may keep the answer (docs/security.md
// "Deployment credentials"): the answer is a live API key minted for that request, so it is `Cache-Control:
// no-store` whichever way the token came; besides the spec's `?token=` query the token may come as a Bearer header
// or in a POST body, which keep it out of URLs (and the proxy logs and browser histories that record them).
import { sha256Hex } from '@risk/common/crypto';
import { harnessWithTenant, expectError, type AdminHarness, type Tenant } from './harness';

let h: AdminHarness;
let tenant: Tenant;
beforeAll(
  async () =>
    ({ h, tenant } = await harnessWithTenant('admindeploytransport', {
      env: { PUBLIC_API_BASE_URL: 'https://api.risk.example' },
    })),
);
afterAll(() => h.close());

async function deploymentToken(): Promise<{ id: string; token: string }> {
  const res = await h.call('post', `/tenants/v1/${tenant.id}/deployment-token`, {
    auth: h.adminAuth,
    body: { name: 'fleet', max_uses: 10 },
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** the minted key is live, belongs to the tenant's org and came from this deployment token */
async function expectMinted(body: { api_key: { key: string } }, deploymentTokenId: string) {
  const row = await h.ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { key_hash: sha256Hex(body.api_key.key) } });
  expect(row).toMatchObject({ org_id: tenant.org_id, deployment_token_id: deploymentTokenId, revoked_at: null });
}

describe('/deploy/v1/credentials', () => {
  it('answers the key with Cache-Control: no-store (GET with the token in the query, as the spec has it)', async () => {
    const dt = await deploymentToken();
    const res = await h.call('get', '/deploy/v1/credentials', { query: { token: dt.token } });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    await expectMinted(res.body, dt.id);
  });

  it('takes the token as a Bearer header on GET, but not twice', async () => {
    const dt = await deploymentToken();
    const res = await h.call('get', '/deploy/v1/credentials', { auth: `Bearer ${dt.token}` });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    await expectMinted(res.body, dt.id);
    expectError(
      await h.call('get', '/deploy/v1/credentials', { auth: `Bearer ${dt.token}`, query: { token: dt.token } }),
      400,
      'parameter_invalid',
      'token',
    );
    expectError(await h.call('get', '/deploy/v1/credentials'), 400, 'missing_required_param', 'token');
    expectError(
      await h.call('get', '/deploy/v1/credentials', { auth: 'Bearer dpl_not_a_real_token_at_all' }),
      401,
      'token_invalid',
      'token',
    );
  });

  it('takes the token in a POST body, with the same checks and no-store', async () => {
    const dt = await deploymentToken();
    const res = await h.call('post', '/deploy/v1/credentials', { body: { token: dt.token } });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({ object: 'deployment_credentials', org_id: tenant.org_id });
    await expectMinted(res.body, dt.id);
    const used = await h.ctx.db.prisma.deploymentToken.findUniqueOrThrow({ where: { id: dt.id } });
    expect(used.use_count).toBe(1);

    expectError(
      await h.call('post', '/deploy/v1/credentials', { body: { token: 'dpl_not_a_real_token_at_all' } }),
      401,
      'token_invalid',
      'token',
    );
    expectError(await h.call('post', '/deploy/v1/credentials', { body: {} }), 400, 'missing_required_param', 'token');
    expectError(
      await h.call('post', '/deploy/v1/credentials', { body: { token: dt.token, org_id: 'org_other' } }),
      400,
      'parameter_unknown',
      'org_id',
    );
    // a refused body minted nothing more
    expect((await h.ctx.db.prisma.deploymentToken.findUniqueOrThrow({ where: { id: dt.id } })).use_count).toBe(1);
  });

  it('never logs the token or the key', () => {
    expect(h.ctx.logLines.some((l) => l.includes('/deploy/v1/credentials'))).toBe(true);
    expect(h.ctx.logLines.join('\n')).not.toMatch(/dpl_[A-Za-z0-9_-]{8,}/);
    expect(h.ctx.logLines.join('\n')).not.toMatch(/rk_live_/);
  });
});
