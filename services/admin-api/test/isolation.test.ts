// Tenant isolation: tenant B gets 404 (never 403, never data) on every route that names one of tenant A's
// firewalls, policies, rules or assignments, cannot pull A's firewall into its own policy, and A's objects
// are unchanged afterwards.
import { createAdminHarness, expectError, type AdminHarness, type Method, type Tenant } from './harness';

let h: AdminHarness;
let a: Tenant;
let b: Tenant;
let aFw: string;
let aFw2: string;
let aPolicy: string;
let aRule: string;
let aRules: string[];
let bPolicy: string;
let bFw: string;
let aSnapshot: string;

const P = '/policies/v1/url-filter';

beforeAll(async () => {
  h = await createAdminHarness('adminisolation');
  a = await h.registerTenant('tenant-a');
  b = await h.registerTenant('tenant-b');
  aFw = (
    await h.createFirewall(a.auth, { name: 'a-fw', type: 'palo_alto', host: '10.0.0.1', api_token: h.newApiToken() })
  ).body.id;
  aFw2 = (
    await h.createFirewall(a.auth, { name: 'a-fw2', type: 'fortinet', host: '10.0.0.2', api_token: h.newApiToken() })
  ).body.id;
  const policy = await h.createPolicy(a.auth, {
    name: 'a-policy',
    rules: [
      { action: 'block', domains: ['x.example'] },
      { action: 'allow', categories: ['news'] },
    ],
  });
  aPolicy = policy.body.id;
  aRules = policy.body.rules.map((r: { id: string }) => r.id);
  aRule = aRules[0]!;
  await h.call('post', `${P}/${aPolicy}/assign`, { auth: a.auth, body: { firewall_ids: [aFw] } });
  bPolicy = (await h.createPolicy(b.auth, { name: 'b-policy', rules: [{ action: 'block', domains: ['y.example'] }] }))
    .body.id;
  bFw = (
    await h.createFirewall(b.auth, { name: 'b-fw', type: 'fortinet', host: '10.0.0.3', api_token: h.newApiToken() })
  ).body.id;
  aSnapshot = JSON.stringify(await state());
});
afterAll(() => h.close());

async function state() {
  const prisma = h.ctx.db.prisma;
  return {
    firewalls: await prisma.firewall.findMany({ where: { tenant_id: a.id }, orderBy: { id: 'asc' } }),
    policies: await prisma.urlFilterPolicy.findMany({
      where: { tenant_id: a.id },
      include: { rules: { orderBy: { id: 'asc' } }, assignments: true },
    }),
  };
}

type Case = [string, Method, () => string, () => unknown, string];
const cases: Case[] = [
  ['GET firewall', 'get', () => `/firewalls/v1/${aFw}`, () => undefined, 'id'],
  ['PUT firewall', 'put', () => `/firewalls/v1/${aFw}`, () => ({ name: 'stolen' }), 'id'],
  ['DELETE firewall', 'delete', () => `/firewalls/v1/${aFw}`, () => undefined, 'id'],
  ['test firewall', 'post', () => `/firewalls/v1/${aFw}/test`, () => undefined, 'id'],
  [
    'configure-vendor-logging',
    'post',
    () => `/firewalls/v1/${aFw}/configure-vendor-logging`,
    () => ({ syslog_server: '10.9.9.9' }),
    'id',
  ],
  ['GET policy', 'get', () => `${P}/${aPolicy}`, () => undefined, 'id'],
  ['PUT policy', 'put', () => `${P}/${aPolicy}`, () => ({ default_action: 'block' }), 'id'],
  ['DELETE policy', 'delete', () => `${P}/${aPolicy}`, () => undefined, 'id'],
  ['POST rule', 'post', () => `${P}/${aPolicy}/rules`, () => ({ action: 'block', domains: ['z.example'] }), 'id'],
  ['PUT rule', 'put', () => `${P}/${aPolicy}/rules/${aRule}`, () => ({ action: 'allow' }), 'id'],
  ['DELETE rule', 'delete', () => `${P}/${aPolicy}/rules/${aRule}`, () => undefined, 'id'],
  ['reorder rules', 'post', () => `${P}/${aPolicy}/rules/reorder`, () => ({ rule_ids: [...aRules].reverse() }), 'id'],
  ['assign A policy to A firewall', 'post', () => `${P}/${aPolicy}/assign`, () => ({ firewall_ids: [aFw2] }), 'id'],
  ['assign A policy to B firewall', 'post', () => `${P}/${aPolicy}/assign`, () => ({ firewall_ids: [bFw] }), 'id'],
  ['unassign', 'delete', () => `${P}/${aPolicy}/assign/${aFw}`, () => undefined, 'id'],
  [
    "assign A's firewall to B's policy",
    'post',
    () => `${P}/${bPolicy}/assign`,
    () => ({ firewall_ids: [aFw] }),
    'firewall_ids[0]',
  ],
  [
    "B's rule routes with A's rule id",
    'put',
    () => `${P}/${bPolicy}/rules/${aRule}`,
    () => ({ action: 'allow' }),
    'ruleId',
  ],
  ["B's unassign with A's firewall", 'delete', () => `${P}/${bPolicy}/assign/${aFw}`, () => undefined, 'fwId'],
];

describe.each(cases)('tenant B: %s', (_label, method, path, body, param) => {
  it('404 resource_missing, without a hint of the object', async () => {
    const res = await h.call(method, path(), { auth: b.auth, body: body() });
    const err = expectError(res, 404, 'resource_missing', param);
    expect(err.type).toBe('not_found_error');
    expect(res.text).not.toContain('a-fw');
    expect(res.text).not.toContain('a-policy');
  });
});

it("tenant B's lists never contain A's objects, and A's objects are unchanged after every attempt", async () => {
  const fws = await h.call('get', '/firewalls/v1', { auth: b.auth });
  expect(fws.body.data.map((f: { id: string }) => f.id)).toEqual([bFw]);
  const policies = await h.call('get', P, { auth: b.auth });
  expect(policies.body.data.map((p: { id: string }) => p.id)).toEqual([bPolicy]);
  const cursor = await h.call('get', '/firewalls/v1', { auth: b.auth, query: { starting_after: aFw } });
  expect(cursor.status).toBe(400); // A's id is not a cursor B may use
  expect(JSON.stringify(await state())).toBe(aSnapshot);
  expect(await h.ctx.db.prisma.policyAssignment.count({ where: { policy_id: bPolicy } })).toBe(0);
});

it('the risk score of tenant B ignores the policies tenant A assigned', async () => {
  const res = await h.call('get', '/tools/v1/risk-score', { auth: b.auth, query: { url: 'https://x.example/' } });
  expect(res.body).toMatchObject({ action: null, policy_decisions: [] });
  const own = await h.call('get', '/tools/v1/risk-score', { auth: a.auth, query: { url: 'https://x.example/' } });
  expect(own.body).toMatchObject({ action: 'block', policy_decisions: [{ policy_id: aPolicy, matched_on: 'domain' }] });
});

it('tenant A still reaches all of its objects with its own token', async () => {
  expect((await h.call('get', `/firewalls/v1/${aFw}`, { auth: a.auth })).status).toBe(200);
  expect((await h.call('get', `${P}/${aPolicy}`, { auth: a.auth })).body.assignments).toHaveLength(1);
  h.assertNoSecretLeaks();
});
