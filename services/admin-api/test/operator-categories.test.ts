// Operator-imported AI categories as policy rule criteria (docs/firewalls.md "Category data"): a CSV import adds
// `ai-acme`; a tenant's policy names it (validated against the merged catalog); the sync compiles its domains
// into the PAN-OS custom URL category / FortiOS URL filter like a shipped AI category, and the simulated device
// enforces them; a re-import that adds a domain marks the assignment pending at a new version (outbox row) and
// the next sync pushes the domain; the risk-score route sees the category. Real Postgres, Redis, simulators.
import {
  CategoryCsvError,
  evaluatePolicy,
  factsForHost,
  importOperatorCategories,
  loadCategoryCatalog,
  parseCategoryCsv,
  policyModelOf,
  syncPolicyAssignment,
  aiCategoryIds,
  AI_PARENT_CATEGORY,
  generalCategories,
} from '@risk/firewalls';
import { expectError, harnessWithTenant, unique, type AdminHarness, type Tenant } from './harness';
import { startSimulators, type Simulators } from './simulators';

let h: AdminHarness;
let tenant: Tenant;
let sims: Simulators;
const P = '/policies/v1/url-filter';

/** What `pnpm cli categories import` does with a file (packages/cli categories-command.ts). */
async function importCsv(text: string) {
  const known = await h.ctx.db.prisma.operatorAiCategory.findMany({ select: { id: true } });
  const parsed = parseCategoryCsv(text, {
    source: 'operator:acme.csv',
    shippedCategoryIds: aiCategoryIds,
    operatorCategoryIds: new Set(known.map((c) => c.id)),
    reservedIds: new Set([AI_PARENT_CATEGORY, ...generalCategories.map((c) => c.id)]),
  });
  return importOperatorCategories(h.ctx.db.prisma, parsed);
}

beforeAll(async () => {
  ({ h, tenant } = await harnessWithTenant('adminopcategories'));
  sims = await startSimulators(h);
  const first = await importCsv('domain,category,vendor,category_name\nllm.acme-test.com,ai-acme,Acme,Acme AI\n');
  expect(first).toMatchObject({ categories: 1, domains: 1, changed_domains: 1, resynced_policies: 0 });
});
afterAll(async () => {
  await sims?.close();
  await h?.close();
});

describe.each([
  ['PAN-OS', 'palo_alto' as const],
  ['FortiOS', 'fortinet' as const],
])('an imported AI category on the %s simulator', (_name, vendor) => {
  it('is accepted in a rule, compiled, enforced by the device, and re-synced when a re-import adds a domain', async () => {
    const fw = await sims.createFirewall(tenant, vendor);
    const policy = await h.createPolicy(tenant.auth, {
      name: unique('acme-ai'),
      default_action: 'allow',
      rules: [{ name: 'block Acme AI', action: 'block', categories: ['ai-acme'] }],
    });
    expect(policy.status).toBe(201);
    const assigned = await h.call('post', `${P}/${policy.body.id}/assign`, {
      auth: tenant.auth,
      body: { firewall_ids: [fw.id] },
    });
    const assignmentId = assigned.body.assignments[0].id as string;
    const sync = () =>
      syncPolicyAssignment(h.ctx.db.prisma, assignmentId, {
        secretsKey: h.ctx.config.SECRETS_KEY!,
        connectorFor: h.connectorFor,
      });
    expect(await sync()).toEqual({ assignment_id: assignmentId, status: 'synced' });
    const row = await h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id: assignmentId } });
    const profile = (row.pushed_objects as { profile: string }).profile;
    const evaluate = (host: string) =>
      vendor === 'palo_alto' ? sims.pan.state.evaluate(profile, host) : sims.forti.state.evaluate(profile, host);
    const added = `${vendor.replace('_', '-')}.acme-test.com`;

    expect(evaluate('llm.acme-test.com')).toBe('block');
    expect(evaluate('api.llm.acme-test.com')).toBe('block');
    expect(evaluate(added)).toBe('allow'); // not in the category yet
    expect(evaluate('chatgpt.com')).toBe('allow');
    // our reference evaluator with the merged catalog agrees with the device
    const catalog = await loadCategoryCatalog(h.ctx.db.prisma);
    const model = policyModelOf(
      await h.ctx.db.prisma.urlFilterPolicy.findUniqueOrThrow({
        where: { id: policy.body.id },
        include: { rules: true },
      }),
      { catalog },
    );
    for (const host of ['llm.acme-test.com', 'api.llm.acme-test.com', added, 'chatgpt.com'])
      expect([host, evaluate(host)]).toEqual([host, evaluatePolicy(model, factsForHost(host, catalog)).action]);

    // a re-import adds a domain to ai-acme: the assignment is pending at version 2 with a firewall_sync outbox row
    const reimport = await importCsv(`domain,category,vendor\n${added},ai-acme,Acme\n`);
    expect(reimport).toMatchObject({ changed_domains: 1, changed_categories: ['ai-acme', AI_PARENT_CATEGORY] });
    expect(reimport.resynced_assignments).toBeGreaterThanOrEqual(1);
    expect(await h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id: assignmentId } })).toMatchObject({
      sync_status: 'pending',
      target_version: 2,
      synced_version: 1,
    });
    const outbox = await h.ctx.db.prisma.outboxMessage.findMany({
      where: { kind: 'firewall_sync', payload: { path: ['assignment_id'], equals: assignmentId } },
    });
    expect(outbox.map((m) => m.payload)).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'apply', version: 2 })]),
    );
    expect(await sync()).toEqual({ assignment_id: assignmentId, status: 'synced' });
    expect(evaluate(added)).toBe('block');

    // the same rows again change nothing: no version bump
    expect(await importCsv(`domain,category,vendor\n${added},ai-acme,Acme\n`)).toMatchObject({
      changed_domains: 0,
      resynced_policies: 0,
    });
    expect(await h.ctx.db.prisma.urlFilterPolicy.findUniqueOrThrow({ where: { id: policy.body.id } })).toMatchObject({
      version: 2,
    });
  });
});

describe('rules naming categories', () => {
  it('the risk-score route classifies with the imported category and the assigned policy blocks it', async () => {
    const res = await h.call('get', '/tools/v1/risk-score', {
      auth: tenant.auth,
      query: { url: 'https://api.llm.acme-test.com/v1' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ai_category: 'ai-acme', vendor: 'Acme', action: 'block' });
    expect(res.body.policy_decisions[0]).toMatchObject({ action: 'block', matched_on: 'category', feed_match: null });
  });

  it.each([
    ['an unknown category', ['ai-nope']],
    ['a category with a line break', ['ai-acme\n']],
    ['a path-like category', ['../ai-acme']],
    ['a category differing in case', ['AI-ACME']],
  ])('refuses %s with 400 on the rule and creates nothing', async (_name, categories) => {
    const name = unique('hostile');
    const res = await h.createPolicy(tenant.auth, {
      name,
      default_action: 'allow',
      rules: [
        { action: 'allow', domains: ['ok.example.com'] },
        { action: 'block', categories },
      ],
    });
    expectError(res, 400, 'parameter_invalid', 'rules[1].categories[0]');
    expect(await h.ctx.db.prisma.urlFilterPolicy.count({ where: { name } })).toBe(0);
  });

  it('refuses an over-long category list and value through the contract', async () => {
    const long = await h.createPolicy(tenant.auth, {
      name: unique('hostile'),
      default_action: 'allow',
      rules: [{ action: 'block', categories: ['a'.repeat(65)] }],
    });
    expect(long.status).toBe(400);
    const many = await h.createPolicy(tenant.auth, {
      name: unique('hostile'),
      default_action: 'allow',
      rules: [{ action: 'block', categories: Array.from({ length: 51 }, (_, i) => `ai-${i}`) }],
    });
    expect(many.status).toBe(400);
  });

  it('a rule update and an added rule may name the imported category', async () => {
    const policy = await h.createPolicy(tenant.auth, {
      name: unique('later'),
      default_action: 'allow',
      rules: [{ action: 'alert', domains: ['x.example.com'] }],
    });
    const ruleId = policy.body.rules[0].id as string;
    const updated = await h.call('put', `${P}/${policy.body.id}/rules/${ruleId}`, {
      auth: tenant.auth,
      body: { categories: ['ai-acme'] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.categories).toEqual(['ai-acme']);
    const addedRule = await h.call('post', `${P}/${policy.body.id}/rules`, {
      auth: tenant.auth,
      body: { action: 'block', categories: ['ai-acme', 'ai-chat-assistant'] },
    });
    expect(addedRule.status).toBe(201);
    const bad = await h.call('put', `${P}/${policy.body.id}/rules/${ruleId}`, {
      auth: tenant.auth,
      body: { categories: ['ai-acme', 'ai-unknown'] },
    });
    expectError(bad, 400, 'parameter_invalid', 'categories[1]');
  });

  it('a hostile CSV is refused whole with line numbers', () => {
    expect(() =>
      parseCategoryCsv('domain,category,vendor\nevil.example.com,ai-acme,"X\n', {
        source: 's',
        shippedCategoryIds: aiCategoryIds,
        operatorCategoryIds: new Set(['ai-acme']),
        reservedIds: new Set([AI_PARENT_CATEGORY]),
      }),
    ).toThrow(CategoryCsvError);
  });
});
