// URL-filter policy rules: append, partial update with validation per field, delete with renumbering; each bumps the
// policy's version.
import { P, policyWithRules, type Rule } from './policy-fixtures';
import { harnessWithTenant, expectError, type AdminHarness, type Tenant } from './harness';

let h: AdminHarness;
let tenant: Tenant;
beforeAll(async () => ({ h, tenant } = await harnessWithTenant('adminpolrules')));
afterAll(() => h.close());

describe('rules', () => {
  it('POST appends a rule at the end and bumps the version', async () => {
    const policy = await policyWithRules(h, tenant, 2);
    const res = await h.call('post', `${P}/${policy.id}/rules`, {
      auth: tenant.auth,
      body: { name: 'gambling', action: 'alert', categories: ['gambling'], domains: ['*.Casino.example'] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'url_filter_rule',
      policy_id: policy.id,
      position: 3,
      name: 'gambling',
      action: 'alert',
      categories: ['gambling'],
      domains: ['*.casino.example'],
      enabled: true,
    });
    expect((await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth })).body.version).toBe(2);
  });

  it.each([
    ['action missing', { domains: ['a.example'] }, 'missing_required_param', 'action'],
    ['action unknown', { action: 'deny', domains: ['a.example'] }, 'parameter_invalid', 'action'],
    ['categories not an array', { action: 'block', categories: 'malware' }, 'parameter_invalid', 'categories'],
    [
      'an unknown category',
      { action: 'block', categories: ['malware', 'astrology'] },
      'parameter_invalid',
      'categories[1]',
    ],
    ['an invalid domain', { action: 'block', domains: ['-bad.example'] }, 'parameter_invalid', 'domains[0]'],
    ['no criteria', { action: 'block', categories: [], domains: [] }, 'missing_required_param', 'categories'],
    ['min_risk_score negative', { action: 'block', min_risk_score: -1 }, 'parameter_invalid', 'min_risk_score'],
    ['enabled a string', { action: 'block', domains: ['a.example'], enabled: 'no' }, 'parameter_invalid', 'enabled'],
    ['an unknown field', { action: 'block', domains: ['a.example'], position: 1 }, 'parameter_unknown', 'position'],
  ])('POST 400 for %s', async (_label, body, code, param) => {
    const policy = await policyWithRules(h, tenant, 1);
    expectError(await h.call('post', `${P}/${policy.id}/rules`, { auth: tenant.auth, body }), 400, code, param);
    expect((await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth })).body).toMatchObject({
      version: 1,
      rules: [{ position: 1 }],
    });
  });

  it('POST 404 for an unknown policy', async () => {
    expectError(
      await h.call('post', `${P}/pol_unknown/rules`, {
        auth: tenant.auth,
        body: { action: 'block', domains: ['a.example'] },
      }),
      404,
      'resource_missing',
      'id',
    );
  });

  it('PUT is a partial update that keeps the other criteria', async () => {
    const policy = await policyWithRules(h, tenant, 2);
    const rule = policy.rules[1]!;
    const res = await h.call('put', `${P}/${policy.id}/rules/${rule.id}`, {
      auth: tenant.auth,
      body: { action: 'alert', categories: ['hacking'], enabled: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: rule.id,
      position: 2,
      name: 'r2',
      action: 'alert',
      categories: ['hacking'],
      domains: ['site2.example'],
      enabled: false,
    });
    const renamed = await h.call('put', `${P}/${policy.id}/rules/${rule.id}`, {
      auth: tenant.auth,
      body: { name: null, min_risk_score: 50 },
    });
    expect(renamed.body).toMatchObject({
      name: null,
      min_risk_score: 50,
      categories: ['hacking'],
      domains: ['site2.example'],
    });
    expect((await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth })).body.version).toBe(3);
  });

  it('PUT 400 when the change leaves no criteria or a field is invalid; 404 for unknown ids', async () => {
    const policy = await policyWithRules(h, tenant, 1);
    const rule = policy.rules[0]!;
    const url = `${P}/${policy.id}/rules/${rule.id}`;
    expectError(
      await h.call('put', url, { auth: tenant.auth, body: { domains: [] } }),
      400,
      'missing_required_param',
      'categories',
    );
    expectError(
      await h.call('put', url, { auth: tenant.auth, body: { action: 'nope' } }),
      400,
      'parameter_invalid',
      'action',
    );
    expectError(
      await h.call('put', url, { auth: tenant.auth, body: { domains: ['ok.example', '*.'] } }),
      400,
      'parameter_invalid',
      'domains[1]',
    );
    expectError(
      await h.call('put', url, { auth: tenant.auth, body: { categories: ['nope'] } }),
      400,
      'parameter_invalid',
      'categories[0]',
    );
    expectError(
      await h.call('put', `${P}/${policy.id}/rules/rul_unknown`, { auth: tenant.auth, body: { action: 'allow' } }),
      404,
      'resource_missing',
      'ruleId',
    );
    expectError(
      await h.call('put', `${P}/pol_unknown/rules/${rule.id}`, { auth: tenant.auth, body: { action: 'allow' } }),
      404,
      'resource_missing',
      'id',
    );
    // a rule of another policy of the same tenant is not reachable through this policy
    const other = await policyWithRules(h, tenant, 1);
    expectError(
      await h.call('put', `${P}/${other.id}/rules/${rule.id}`, { auth: tenant.auth, body: { action: 'allow' } }),
      404,
      'resource_missing',
      'ruleId',
    );
  });

  it('DELETE removes the rule, renumbers the rest and bumps the version; 404 for unknown ids', async () => {
    const policy = await policyWithRules(h, tenant, 3);
    const res = await h.call('delete', `${P}/${policy.id}/rules/${policy.rules[0]!.id}`, { auth: tenant.auth });
    expect(res.body).toEqual({ id: policy.rules[0]!.id, object: 'url_filter_rule', deleted: true });
    const after = await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth });
    expect(after.body.version).toBe(2);
    expect(after.body.rules.map((r: Rule) => [r.name, r.position])).toEqual([
      ['r2', 1],
      ['r3', 2],
    ]);
    expectError(
      await h.call('delete', `${P}/${policy.id}/rules/${policy.rules[0]!.id}`, { auth: tenant.auth }),
      404,
      'resource_missing',
      'ruleId',
    );
    expectError(
      await h.call('delete', `${P}/pol_unknown/rules/${policy.rules[1]!.id}`, { auth: tenant.auth }),
      404,
      'resource_missing',
      'id',
    );
  });
});
