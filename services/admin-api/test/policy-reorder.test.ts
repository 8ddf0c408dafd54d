// POST /policies/v1/url-filter/{id}/rules/reorder: the permutation check, expected_version and concurrent reorders.
import { P, policyWithRules, type Rule } from './policy-fixtures';
import { harnessWithTenant, expectError, type AdminHarness, type Tenant } from './harness';

let h: AdminHarness;
let tenant: Tenant;
beforeAll(async () => ({ h, tenant } = await harnessWithTenant('adminpolreorder')));
afterAll(() => h.close());

describe('POST /policies/v1/url-filter/{id}/rules/reorder', () => {
  it('applies a permutation, bumps the version and honours a current expected_version', async () => {
    const policy = await policyWithRules(h, tenant, 3);
    const [a, b, c] = policy.rules.map((r) => r.id);
    const res = await h.call('post', `${P}/${policy.id}/rules/reorder`, {
      auth: tenant.auth,
      body: { rule_ids: [c, a, b], expected_version: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(2);
    expect(res.body.rules.map((r: Rule) => [r.id, r.position])).toEqual([
      [c, 1],
      [a, 2],
      [b, 3],
    ]);
    const again = await h.call('post', `${P}/${policy.id}/rules/reorder`, {
      auth: tenant.auth,
      body: { rule_ids: [a, b, c] },
    });
    expect(again.body.rules.map((r: Rule) => r.name)).toEqual(['r1', 'r2', 'r3']);
  });

  it.each([
    ['a rule left out', (ids: string[]) => ids.slice(1)],
    ['a rule twice', (ids: string[]) => [ids[0], ids[0], ids[1], ids[2]]],
    ['a duplicate replacing a rule', (ids: string[]) => [ids[0], ids[0], ids[2]]],
    ['an unknown id', (ids: string[]) => [...ids, 'rul_unknown']],
    ['an unknown id replacing a rule', (ids: string[]) => [ids[0], ids[1], 'rul_unknown']],
    ['an empty list', () => []],
  ])('400 invalid_rule_order for %s, nothing changes', async (_label, build) => {
    const policy = await policyWithRules(h, tenant, 3);
    const ids = policy.rules.map((r) => r.id);
    const err = expectError(
      await h.call('post', `${P}/${policy.id}/rules/reorder`, { auth: tenant.auth, body: { rule_ids: build(ids) } }),
      400,
      'invalid_rule_order',
      'rule_ids',
    );
    expect(err.type).toBe('invalid_request_error');
    const after = await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth });
    expect(after.body.version).toBe(1);
    expect(after.body.rules.map((r: Rule) => r.id)).toEqual(ids);
  });

  it('400 invalid_rule_order for a rule of another policy', async () => {
    const policy = await policyWithRules(h, tenant, 2);
    const other = await policyWithRules(h, tenant, 1);
    expectError(
      await h.call('post', `${P}/${policy.id}/rules/reorder`, {
        auth: tenant.auth,
        body: { rule_ids: [policy.rules[0]!.id, other.rules[0]!.id] },
      }),
      400,
      'invalid_rule_order',
      'rule_ids',
    );
  });

  it.each([
    ['rule_ids missing', {}, 'missing_required_param', 'rule_ids'],
    ['rule_ids not an array', { rule_ids: 'a,b' }, 'parameter_invalid', 'rule_ids'],
    ['expected_version zero', { rule_ids: [], expected_version: 0 }, 'parameter_invalid', 'expected_version'],
    ['an unknown field', { rule_ids: [], force: true }, 'parameter_unknown', 'force'],
  ])('400 for %s', async (_label, body, code, param) => {
    const policy = await policyWithRules(h, tenant, 1);
    expectError(await h.call('post', `${P}/${policy.id}/rules/reorder`, { auth: tenant.auth, body }), 400, code, param);
  });

  it('409 version_conflict for a stale expected_version; 404 for an unknown policy', async () => {
    const policy = await policyWithRules(h, tenant, 2);
    await h.call('post', `${P}/${policy.id}/rules`, {
      auth: tenant.auth,
      body: { action: 'block', domains: ['late.example'] },
    });
    const ids = (await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth })).body.rules
      .map((r: Rule) => r.id)
      .reverse();
    const err = expectError(
      await h.call('post', `${P}/${policy.id}/rules/reorder`, {
        auth: tenant.auth,
        body: { rule_ids: ids, expected_version: 1 },
      }),
      409,
      'version_conflict',
      'expected_version',
    );
    expect(err.message).toMatch(/version 2/);
    expect(
      (
        await h.call('post', `${P}/${policy.id}/rules/reorder`, {
          auth: tenant.auth,
          body: { rule_ids: ids, expected_version: 2 },
        })
      ).body.version,
    ).toBe(3);
    expectError(
      await h.call('post', `${P}/pol_unknown/rules/reorder`, { auth: tenant.auth, body: { rule_ids: [] } }),
      404,
      'resource_missing',
      'id',
    );
  });

  it('two concurrent reorders with the same expected_version: one wins, the other is 409', async () => {
    const policy = await policyWithRules(h, tenant, 3);
    const ids = policy.rules.map((r) => r.id);
    const results = await Promise.all([
      h.call('post', `${P}/${policy.id}/rules/reorder`, {
        auth: tenant.auth,
        body: { rule_ids: [...ids].reverse(), expected_version: 1 },
      }),
      h.call('post', `${P}/${policy.id}/rules/reorder`, {
        auth: tenant.auth,
        body: { rule_ids: [ids[1], ids[0], ids[2]], expected_version: 1 },
      }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth })).body.version).toBe(2);
  });
});
