// URL-filter policies: the two category routes, create with validation per field and domain normalisation, list and
// retrieve (updates and deletion: policy-updates.test.ts; rules: policy-rules.test.ts, policy-reorder.test.ts).
import { P } from './policy-fixtures';
import { harnessWithTenant, expectError, unique, type AdminHarness, type Tenant } from './harness';

let h: AdminHarness;
let tenant: Tenant;
beforeAll(async () => ({ h, tenant } = await harnessWithTenant('adminpolicies')));
afterAll(() => h.close());

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
