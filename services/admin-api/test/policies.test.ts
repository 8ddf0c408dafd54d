// URL-filter policies and rules: CRUD with validation per field, domain normalisation, versioning, reorder
// (permutation check, expected_version), deleting an assigned policy, and the two category routes.
import { harnessWithTenant, expectError, unique, type AdminHarness, type Tenant } from './harness';

let h: AdminHarness;
let tenant: Tenant;
beforeAll(async () => ({ h, tenant } = await harnessWithTenant('adminpolicies')));
afterAll(() => h.close());

const P = '/policies/v1/url-filter';
type Rule = { id: string; position: number; name: string | null };

async function policyWithRules(n = 3) {
  const rules = Array.from({ length: n }, (_, i) => ({
    name: `r${i + 1}`,
    action: 'block',
    domains: [`site${i + 1}.example`],
  }));
  const res = await h.createPolicy(tenant.auth, { name: unique('pol'), rules });
  expect(res.status).toBe(201);
  return res.body as { id: string; version: number; rules: Rule[] };
}

async function firewall() {
  const res = await h.createFirewall(tenant.auth, {
    name: unique('fw'),
    type: 'fortinet',
    host: '10.0.0.9',
    api_token: h.newApiToken(),
  });
  return res.body.id as string;
}

const outboxFor = (assignmentId: string) =>
  h.ctx.db.prisma.outboxMessage.findMany({
    where: { kind: 'firewall_sync', payload: { path: ['assignment_id'], equals: assignmentId } },
    orderBy: { id: 'asc' },
  });

describe('GET /policies/v1/categories and /categories/ai', () => {
  it('lists at least 15 general categories with vendor mappings', async () => {
    const res = await h.call('get', '/policies/v1/categories', { auth: tenant.auth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, url: '/policies/v1/categories' });
    expect(res.body.data.length).toBeGreaterThanOrEqual(15);
    for (const c of res.body.data)
      expect(c).toEqual({
        id: expect.any(String),
        name: expect.any(String),
        description: expect.any(String),
        pan_os: expect.any(Array),
        fortiguard: expect.any(Array),
      });
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual(
      expect.arrayContaining(['malware', 'phishing', 'gambling', 'artificial-intelligence']),
    );
  });

  it('lists at least 8 AI sub-categories covering at least 120 real AI domains', async () => {
    const res = await h.call('get', '/policies/v1/categories/ai', { auth: tenant.auth });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThanOrEqual(8);
    const domains = res.body.data.flatMap((c: { domains: string[] }) => c.domains);
    expect(new Set(domains).size).toBeGreaterThanOrEqual(120);
    for (const c of res.body.data) {
      expect(c.parent).toBe('artificial-intelligence');
      expect(c.domains.length).toBeGreaterThan(0);
      expect(c.vendors.length).toBeGreaterThan(0);
    }
    const chat = res.body.data.find((c: { id: string }) => c.id === 'ai-chat-assistant');
    expect(chat.domains).toEqual(expect.arrayContaining(['chatgpt.com', 'claude.ai']));
    expect(chat.vendors).toEqual(expect.arrayContaining(['OpenAI', 'Anthropic']));
  });
});

describe('POST /policies/v1/url-filter', () => {
  it('201 with version 1, defaults, ordered rules and normalised domain patterns', async () => {
    const res = await h.createPolicy(tenant.auth, {
      name: 'AI governance',
      description: 'who may use which AI',
      rules: [
        {
          name: 'allow enterprise chatgpt',
          action: 'allow',
          domains: ['ChatGPT.com.', 'chatgpt.com', '*.Example.ORG', 'bücher.example'],
        },
        { action: 'block', categories: ['ai-chat-assistant', 'ai-chat-assistant'] },
        { action: 'alert', min_risk_score: 70, enabled: false },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'url_filter_policy',
      name: 'AI governance',
      description: 'who may use which AI',
      default_action: 'allow',
      version: 1,
      assignments: [],
    });
    expect(res.body.id).toMatch(/^pol_/);
    expect(res.body.rules).toEqual([
      expect.objectContaining({
        position: 1,
        name: 'allow enterprise chatgpt',
        action: 'allow',
        domains: ['chatgpt.com', '*.example.org', 'xn--bcher-kva.example'],
        categories: [],
        min_risk_score: null,
        enabled: true,
      }),
      expect.objectContaining({
        position: 2,
        name: null,
        action: 'block',
        categories: ['ai-chat-assistant'],
        domains: [],
      }),
      expect.objectContaining({ position: 3, action: 'alert', min_risk_score: 70, enabled: false }),
    ]);
    const empty = await h.createPolicy(tenant.auth, { name: unique('empty'), default_action: 'block' });
    expect(empty.body).toMatchObject({ default_action: 'block', rules: [], version: 1 });
  });

  it.each([
    ['name missing', {}, 'missing_required_param', 'name'],
    ['name empty', { name: '' }, 'parameter_invalid', 'name'],
    ['description too long', { name: 'x', description: 'd'.repeat(1001) }, 'parameter_invalid', 'description'],
    ['default_action unknown', { name: 'x', default_action: 'deny' }, 'parameter_invalid', 'default_action'],
    ['rules not an array', { name: 'x', rules: {} }, 'parameter_invalid', 'rules'],
    [
      'a rule without action',
      { name: 'x', rules: [{ domains: ['a.example'] }] },
      'missing_required_param',
      'rules[0].action',
    ],
    [
      'a rule with an unknown action',
      { name: 'x', rules: [{ action: 'drop', domains: ['a.example'] }] },
      'parameter_invalid',
      'rules[0].action',
    ],
    [
      'an unknown category',
      {
        name: 'x',
        rules: [
          { action: 'block', domains: ['a.example'] },
          { action: 'block', categories: ['gambling', 'crypto'] },
        ],
      },
      'parameter_invalid',
      'rules[1].categories[1]',
    ],
    [
      'an invalid domain',
      { name: 'x', rules: [{ action: 'block', domains: ['ok.example', 'not a domain'] }] },
      'parameter_invalid',
      'rules[0].domains[1]',
    ],
    [
      'a wildcard on a TLD',
      { name: 'x', rules: [{ action: 'block', domains: ['*.com'] }] },
      'parameter_invalid',
      'rules[0].domains[0]',
    ],
    [
      'a URL instead of a domain',
      { name: 'x', rules: [{ action: 'block', domains: ['https://a.example/path'] }] },
      'parameter_invalid',
      'rules[0].domains[0]',
    ],
    [
      'a rule with no criteria',
      { name: 'x', rules: [{ action: 'block' }] },
      'missing_required_param',
      'rules[0].categories',
    ],
    [
      'min_risk_score above 100',
      { name: 'x', rules: [{ action: 'block', min_risk_score: 101 }] },
      'parameter_invalid',
      'rules[0].min_risk_score',
    ],
    [
      'an unknown rule field',
      { name: 'x', rules: [{ action: 'block', domains: ['a.example'], priority: 1 }] },
      'parameter_unknown',
      'rules[0].priority',
    ],
    ['an unknown field', { name: 'x', version: 3 }, 'parameter_unknown', 'version'],
  ])('400 for %s', async (_label, body, code, param) => {
    expectError(await h.createPolicy(tenant.auth, body), 400, code, param);
  });

  it('409 for a duplicate name in the tenant', async () => {
    const name = unique('dup');
    expect((await h.createPolicy(tenant.auth, { name })).status).toBe(201);
    expectError(await h.createPolicy(tenant.auth, { name }), 409, 'resource_already_exists', 'name');
  });
});

describe('GET /policies/v1/url-filter and /{id}', () => {
  it('lists only this tenant policies with rules and assignments, paginated', async () => {
    const own = await h.registerTenant();
    const a = await h.createPolicy(own.auth, { name: 'a', rules: [{ action: 'block', categories: ['malware'] }] });
    const b = await h.createPolicy(own.auth, { name: 'b' });
    const list = await h.call('get', P, { auth: own.auth });
    expect(list.body).toMatchObject({ object: 'list', has_more: false, url: P });
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([b.body.id, a.body.id]);
    expect(list.body.data[1].rules).toHaveLength(1);
    const page = await h.call('get', P, { auth: own.auth, query: { limit: '1' } });
    expect(page.body).toMatchObject({ has_more: true, data: [{ id: b.body.id }] });
    const one = await h.call('get', `${P}/${a.body.id}`, { auth: own.auth });
    expect(one.body).toEqual(a.body);
  });

  it('404 for an unknown id', async () => {
    expectError(await h.call('get', `${P}/pol_unknown`, { auth: tenant.auth }), 404, 'resource_missing', 'id');
  });
});

describe('PUT /policies/v1/url-filter/{id}', () => {
  it('updates given fields and bumps version; an assigned policy goes pending with a new outbox row', async () => {
    const policy = await policyWithRules(1);
    const fwId = await firewall();
    const assigned = await h.call('post', `${P}/${policy.id}/assign`, {
      auth: tenant.auth,
      body: { firewall_ids: [fwId] },
    });
    const assignmentId = assigned.body.assignments[0].id;
    await h.ctx.db.prisma.policyAssignment.update({
      where: { id: assignmentId },
      data: { sync_status: 'synced', synced_version: 1 },
    });

    const res = await h.call('put', `${P}/${policy.id}`, {
      auth: tenant.auth,
      body: { default_action: 'block', description: 'strict' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      default_action: 'block',
      description: 'strict',
      version: 2,
      name: expect.any(String),
    });
    expect(res.body.assignments).toEqual([
      expect.objectContaining({ id: assignmentId, sync_status: 'pending', target_version: 2, synced_version: 1 }),
    ]);
    expect((await outboxFor(assignmentId)).map((m) => m.payload)).toEqual([
      { assignment_id: assignmentId, action: 'apply', version: 1 },
      { assignment_id: assignmentId, action: 'apply', version: 2 },
    ]);
    const cleared = await h.call('put', `${P}/${policy.id}`, { auth: tenant.auth, body: { description: null } });
    expect(cleared.body).toMatchObject({ description: null, default_action: 'block', version: 3 });
  });

  it.each([
    ['name empty', { name: '' }, 'parameter_invalid', 'name'],
    ['default_action unknown', { default_action: 'permit' }, 'parameter_invalid', 'default_action'],
    ['rules (edited through the rule routes)', { rules: [] }, 'parameter_unknown', 'rules'],
  ])('400 for %s', async (_label, body, code, param) => {
    const policy = await policyWithRules(1);
    expectError(await h.call('put', `${P}/${policy.id}`, { auth: tenant.auth, body }), 400, code, param);
  });

  it('409 when renaming onto another policy; 404 for an unknown id', async () => {
    const a = await policyWithRules(1);
    const b = await policyWithRules(1);
    const aName = (await h.call('get', `${P}/${a.id}`, { auth: tenant.auth })).body.name;
    expectError(
      await h.call('put', `${P}/${b.id}`, { auth: tenant.auth, body: { name: aName } }),
      409,
      'resource_already_exists',
      'name',
    );
    expect((await h.call('get', `${P}/${b.id}`, { auth: tenant.auth })).body.version).toBe(1);
    expectError(
      await h.call('put', `${P}/pol_unknown`, { auth: tenant.auth, body: { name: 'x' } }),
      404,
      'resource_missing',
      'id',
    );
  });
});

describe('DELETE /policies/v1/url-filter/{id}', () => {
  it('deletes an unassigned policy with its rules', async () => {
    const policy = await policyWithRules(2);
    const res = await h.call('delete', `${P}/${policy.id}`, { auth: tenant.auth });
    expect(res.body).toEqual({ id: policy.id, object: 'url_filter_policy', deleted: true });
    expect(await h.ctx.db.prisma.urlFilterRule.count({ where: { policy_id: policy.id } })).toBe(0);
    expectError(await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth }), 404, 'resource_missing', 'id');
  });

  it('409 policy_assigned while the policy is assigned; 404 for an unknown id', async () => {
    const policy = await policyWithRules(1);
    const fwId = await firewall();
    await h.call('post', `${P}/${policy.id}/assign`, { auth: tenant.auth, body: { firewall_ids: [fwId] } });
    const err = expectError(
      await h.call('delete', `${P}/${policy.id}`, { auth: tenant.auth }),
      409,
      'policy_assigned',
      'id',
    );
    expect(err.type).toBe('conflict_error');
    expect(err.message).toMatch(/unassign/);
    expect((await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth })).status).toBe(200);
    expectError(await h.call('delete', `${P}/pol_unknown`, { auth: tenant.auth }), 404, 'resource_missing', 'id');
  });
});

describe('rules', () => {
  it('POST appends a rule at the end and bumps the version', async () => {
    const policy = await policyWithRules(2);
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
    const policy = await policyWithRules(1);
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
    const policy = await policyWithRules(2);
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
    const policy = await policyWithRules(1);
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
    const other = await policyWithRules(1);
    expectError(
      await h.call('put', `${P}/${other.id}/rules/${rule.id}`, { auth: tenant.auth, body: { action: 'allow' } }),
      404,
      'resource_missing',
      'ruleId',
    );
  });

  it('DELETE removes the rule, renumbers the rest and bumps the version; 404 for unknown ids', async () => {
    const policy = await policyWithRules(3);
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

describe('POST /policies/v1/url-filter/{id}/rules/reorder', () => {
  it('applies a permutation, bumps the version and honours a current expected_version', async () => {
    const policy = await policyWithRules(3);
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
    const policy = await policyWithRules(3);
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
    const policy = await policyWithRules(2);
    const other = await policyWithRules(1);
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
    const policy = await policyWithRules(1);
    expectError(await h.call('post', `${P}/${policy.id}/rules/reorder`, { auth: tenant.auth, body }), 400, code, param);
  });

  it('409 version_conflict for a stale expected_version; 404 for an unknown policy', async () => {
    const policy = await policyWithRules(2);
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
    const policy = await policyWithRules(3);
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
