// `expected_version` on policy and rule updates (docs/admin-api.md "Rules"): a change based on the version the
// caller read succeeds and bumps it; a stale one is 409 version_conflict and changes nothing; without it the
// update applies whatever the version (as before). The console's edit forms send it (docs/console-pages.md).
import { harnessWithTenant, expectError, unique, type AdminHarness, type Tenant } from './harness';

let h: AdminHarness;
let tenant: Tenant;
beforeAll(async () => ({ h, tenant } = await harnessWithTenant('adminpolicyversion')));
afterAll(() => h.close());

const P = '/policies/v1/url-filter';

async function policy() {
  const res = await h.createPolicy(tenant.auth, {
    name: unique('pol'),
    rules: [{ name: 'r1', action: 'block', domains: ['one.example'] }],
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; version: number; rules: Array<{ id: string }> };
}

const read = async (id: string) => (await h.call('get', `${P}/${id}`, { auth: tenant.auth })).body;

describe('PUT /policies/v1/url-filter/{id} with expected_version', () => {
  it('applies at the current version; 409 version_conflict at a stale one, changing nothing', async () => {
    const p = await policy();
    const ok = await h.call('put', `${P}/${p.id}`, {
      auth: tenant.auth,
      body: { name: `${unique('renamed')}`, default_action: 'block', expected_version: 1 },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ default_action: 'block', version: 2 });
    const err = expectError(
      await h.call('put', `${P}/${p.id}`, {
        auth: tenant.auth,
        body: { default_action: 'alert', expected_version: 1 },
      }),
      409,
      'version_conflict',
      'expected_version',
    );
    expect(err.message).toMatch(/version 2, not 1/);
    expect(await read(p.id)).toMatchObject({ default_action: 'block', version: 2 });
    // without expected_version the update applies as before
    const blind = await h.call('put', `${P}/${p.id}`, { auth: tenant.auth, body: { default_action: 'alert' } });
    expect(blind.body).toMatchObject({ default_action: 'alert', version: 3 });
  });

  it('400 for an expected_version that is not a positive integer', async () => {
    const p = await policy();
    for (const expected_version of [0, 1.5, '1']) {
      const res = await h.call('put', `${P}/${p.id}`, {
        auth: tenant.auth,
        body: { default_action: 'alert', expected_version },
      });
      expect({ status: res.status, param: res.body.error.param }).toEqual({ status: 400, param: 'expected_version' });
      expect(res.body.error.code).toMatch(/^parameter_invalid/);
    }
    expect((await read(p.id)).version).toBe(1);
  });
});

describe('PUT /policies/v1/url-filter/{id}/rules/{ruleId} with expected_version', () => {
  it('applies at the current version and bumps it; 409 at a stale one, the rule unchanged', async () => {
    const p = await policy();
    const ruleId = p.rules[0]!.id;
    const ok = await h.call('put', `${P}/${p.id}/rules/${ruleId}`, {
      auth: tenant.auth,
      body: { action: 'alert', domains: ['two.example'], expected_version: 1 },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ action: 'alert', domains: ['two.example'] });
    expect(ok.body).not.toHaveProperty('expected_version');
    expect((await read(p.id)).version).toBe(2);
    expectError(
      await h.call('put', `${P}/${p.id}/rules/${ruleId}`, {
        auth: tenant.auth,
        body: { action: 'allow', expected_version: 1 },
      }),
      409,
      'version_conflict',
      'expected_version',
    );
    const after = await read(p.id);
    expect(after.version).toBe(2);
    expect(after.rules[0]).toMatchObject({ action: 'alert', domains: ['two.example'] });
  });

  it('two concurrent rule edits at the same version: one wins, the other is 409', async () => {
    const p = await policy();
    const ruleId = p.rules[0]!.id;
    const edit = (action: string) =>
      h.call('put', `${P}/${p.id}/rules/${ruleId}`, { auth: tenant.auth, body: { action, expected_version: 1 } });
    const results = await Promise.all([edit('allow'), edit('alert')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await read(p.id)).version).toBe(2);
  });
});
