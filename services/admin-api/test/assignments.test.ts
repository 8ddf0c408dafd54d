// Assign / unassign through the API and the sync use cases the worker runs, against both simulators:
// pending → synced with the device evaluating like our model, re-sync after a change, failures with a
// precise reason (wrong key, closed port, untranslatable order), unassign removing what was pushed.
import {
  evaluatePolicy,
  factsForHost,
  policyModelOf,
  removePolicyAssignment,
  syncPolicyAssignment,
} from '@risk/firewalls';
import { closedPort, harnessWithTenant, expectError, unique, type AdminHarness, type Tenant } from './harness';
import { startSimulators, type Simulators, type Vendor } from './simulators';

let h: AdminHarness;
let tenant: Tenant;
let sims: Simulators;
const P = '/policies/v1/url-filter';

beforeAll(async () => {
  ({ h, tenant } = await harnessWithTenant('adminassign'));
  sims = await startSimulators(h);
});
afterAll(async () => {
  await sims.close();
  await h.close();
});

const syncOpts = () => ({ secretsKey: h.ctx.config.SECRETS_KEY!, connectorFor: h.connectorFor });
const sync = (id: string) => syncPolicyAssignment(h.ctx.db.prisma, id, syncOpts());
const remove = (id: string) => removePolicyAssignment(h.ctx.db.prisma, id, syncOpts());

async function simFirewall(vendor: Vendor, over: Record<string, unknown> = {}) {
  return (await sims.createFirewall(tenant, vendor, over)).id;
}

async function governancePolicy() {
  const res = await h.createPolicy(tenant.auth, {
    name: unique('gov'),
    default_action: 'allow',
    rules: [
      { name: 'allow enterprise chatgpt', action: 'allow', domains: ['chatgpt.com'] },
      { name: 'block chat assistants', action: 'block', categories: ['ai-chat-assistant'] },
      { name: 'alert code assistants', action: 'alert', categories: ['ai-code-assistant'] },
    ],
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; version: number; rules: Array<{ id: string }> };
}

const HOSTS = ['chatgpt.com', 'chat.openai.com', 'claude.ai', 'www.claude.ai', 'cursor.com', 'example.org'];

describe('POST /policies/v1/url-filter/{id}/assign', () => {
  it('creates pending assignments carrying the policy version and one firewall_sync outbox row each', async () => {
    const policy = await governancePolicy();
    const fws = [await simFirewall('palo_alto'), await simFirewall('fortinet')];
    const res = await h.call('post', `${P}/${policy.id}/assign`, {
      auth: tenant.auth,
      body: { firewall_ids: [...fws, fws[0]] },
    });
    expect(res.status).toBe(200);
    expect(res.body.assignments).toEqual(
      fws.map((fw) =>
        expect.objectContaining({
          object: 'policy_assignment',
          policy_id: policy.id,
          firewall_id: fw,
          sync_status: 'pending',
          target_version: 1,
          synced_version: null,
          last_error: null,
          warnings: [],
        }),
      ),
    );
    const outbox = await h.ctx.db.prisma.outboxMessage.findMany({
      where: { kind: 'firewall_sync', payload: { path: ['version'], equals: 1 } },
    });
    const ids = res.body.assignments.map((a: { id: string }) => a.id);
    expect(
      outbox
        .filter((m) => ids.includes((m.payload as { assignment_id: string }).assignment_id))
        .map((m) => (m.payload as { action: string }).action),
    ).toEqual(['apply', 'apply']);
  });

  it.each([
    ['firewall_ids missing', {}, 'missing_required_param', 'firewall_ids'],
    ['firewall_ids empty', { firewall_ids: [] }, 'parameter_invalid', 'firewall_ids'],
    ['firewall_ids not an array', { firewall_ids: 'fw_1' }, 'parameter_invalid', 'firewall_ids'],
    ['an empty id', { firewall_ids: [''] }, 'parameter_invalid', 'firewall_ids[0]'],
    ['an unknown field', { firewall_ids: ['fw_1'], mode: 'x' }, 'parameter_unknown', 'mode'],
  ])('400 for %s', async (_label, body, code, param) => {
    const policy = await governancePolicy();
    expectError(await h.call('post', `${P}/${policy.id}/assign`, { auth: tenant.auth, body }), 400, code, param);
  });

  it('404 naming the unknown firewall, and nothing is assigned; 404 for an unknown policy', async () => {
    const policy = await governancePolicy();
    const fw = await simFirewall('fortinet');
    expectError(
      await h.call('post', `${P}/${policy.id}/assign`, {
        auth: tenant.auth,
        body: { firewall_ids: [fw, 'fw_unknown'] },
      }),
      404,
      'resource_missing',
      'firewall_ids[1]',
    );
    expect(await h.ctx.db.prisma.policyAssignment.count({ where: { policy_id: policy.id } })).toBe(0);
    expectError(
      await h.call('post', `${P}/pol_unknown/assign`, { auth: tenant.auth, body: { firewall_ids: [fw] } }),
      404,
      'resource_missing',
      'id',
    );
  });
});

describe.each([
  ['PAN-OS', 'palo_alto' as const],
  ['FortiOS', 'fortinet' as const],
])('sync on the %s simulator', (_name, vendor) => {
  const evaluate = (profile: string, host: string) =>
    vendor === 'palo_alto' ? sims.pan.state.evaluate(profile, host) : sims.forti.state.evaluate(profile, host);

  it('assign → synced; the device decides like our model for every host; a change re-syncs; unassign removes everything', async () => {
    const policy = await governancePolicy();
    const fw = await simFirewall(vendor);
    const assigned = await h.call('post', `${P}/${policy.id}/assign`, {
      auth: tenant.auth,
      body: { firewall_ids: [fw] },
    });
    const assignmentId = assigned.body.assignments[0].id as string;
    expect(await sync(assignmentId)).toEqual({ assignment_id: assignmentId, status: 'synced' });
    const synced = (await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth })).body.assignments[0];
    expect(synced).toMatchObject({
      sync_status: 'synced',
      synced_version: 1,
      target_version: 1,
      last_error: null,
      last_synced_at: expect.any(String),
    });
    const row = await h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id: assignmentId } });
    const profile = (row.pushed_objects as { profile: string }).profile;
    const model = policyModelOf(
      await h.ctx.db.prisma.urlFilterPolicy.findUniqueOrThrow({
        where: { id: policy.id },
        include: { rules: true, assignments: true },
      }),
    );
    for (const host of HOSTS)
      expect([host, evaluate(profile, host)]).toEqual([host, evaluatePolicy(model, factsForHost(host)).action]);

    // a rule change: pending at version 2, then synced at 2 and the device follows (chatgpt.com now blocked)
    const first = policy.rules[0]!.id;
    await h.call('put', `${P}/${policy.id}/rules/${first}`, { auth: tenant.auth, body: { action: 'block' } });
    expect((await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth })).body.assignments[0]).toMatchObject({
      sync_status: 'pending',
      target_version: 2,
      synced_version: 1,
    });
    expect((await sync(assignmentId)).status).toBe('synced');
    expect((await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth })).body.assignments[0]).toMatchObject({
      sync_status: 'synced',
      synced_version: 2,
    });
    expect(evaluate(profile, 'chatgpt.com')).toBe('block');

    // unassign: removing, then the worker removes the objects and the assignment
    const un = await h.call('delete', `${P}/${policy.id}/assign/${fw}`, { auth: tenant.auth });
    expect(un.status).toBe(200);
    expect(un.body).toMatchObject({ id: assignmentId, sync_status: 'removing' });
    const removal = await h.ctx.db.prisma.outboxMessage.findMany({
      where: { kind: 'firewall_sync', payload: { path: ['action'], equals: 'remove' } },
    });
    expect(removal.map((m) => (m.payload as { assignment_id: string }).assignment_id)).toContain(assignmentId);
    expect(await sync(assignmentId)).toEqual({ assignment_id: assignmentId, status: 'skipped' }); // a late apply job does not re-push
    expect(await remove(assignmentId)).toEqual({ assignment_id: assignmentId, status: 'removed' });
    if (vendor === 'palo_alto') {
      expect(Object.keys(sims.pan.state.customCategories()).filter((n) => n.startsWith(profile))).toEqual([]);
    } else {
      expect(sims.forti.state.profiles.find((p) => p.name === profile)).toBeUndefined();
      expect(sims.forti.state.urlfilters.find((t) => t.name === profile)).toBeUndefined();
    }
    expect((await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth })).body.assignments).toEqual([]);
    // now the policy can be deleted
    expect((await h.call('delete', `${P}/${policy.id}`, { auth: tenant.auth })).status).toBe(200);
  });

  it('a wrong API key fails the sync with auth_rejected (not retryable), shown on the assignment', async () => {
    const policy = await governancePolicy();
    const fw = await simFirewall(vendor, { api_token: h.newApiToken() });
    const assigned = await h.call('post', `${P}/${policy.id}/assign`, {
      auth: tenant.auth,
      body: { firewall_ids: [fw] },
    });
    const result = await sync(assigned.body.assignments[0].id);
    expect(result).toMatchObject({ status: 'failed', retryable: false, error: { reason: 'auth_rejected' } });
    expect((await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth })).body.assignments[0]).toMatchObject({
      sync_status: 'failed',
      synced_version: null,
      last_error: expect.stringMatching(/^auth_rejected: /),
    });
  });

  it('an unreachable firewall fails the sync with tcp_refused (retryable)', async () => {
    const policy = await governancePolicy();
    const fw = await simFirewall(vendor, { port: await closedPort() });
    const assigned = await h.call('post', `${P}/${policy.id}/assign`, {
      auth: tenant.auth,
      body: { firewall_ids: [fw] },
    });
    expect(await sync(assigned.body.assignments[0].id)).toMatchObject({
      status: 'failed',
      retryable: true,
      error: { reason: 'tcp_refused' },
    });
    expect((await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth })).body.assignments[0]).toMatchObject({
      sync_status: 'failed',
      last_error: expect.stringMatching(/^tcp_refused: connection refused by 127\.0\.0\.1:/),
    });
  });

  it('re-assigning a failed assignment makes it pending again without a second row', async () => {
    const policy = await governancePolicy();
    const fw = await simFirewall(vendor, { port: await closedPort() });
    const first = await h.call('post', `${P}/${policy.id}/assign`, { auth: tenant.auth, body: { firewall_ids: [fw] } });
    await sync(first.body.assignments[0].id);
    const again = await h.call('post', `${P}/${policy.id}/assign`, { auth: tenant.auth, body: { firewall_ids: [fw] } });
    expect(again.body.assignments).toEqual([
      expect.objectContaining({ id: first.body.assignments[0].id, sync_status: 'pending', last_error: null }),
    ]);
  });
});

it('PAN-OS: a later stricter rule overlapping an earlier allow cannot be expressed → failed policy_not_translatable', async () => {
  const res = await h.createPolicy(tenant.auth, {
    name: unique('untranslatable'),
    rules: [
      { action: 'allow', domains: ['chat.openai.com'] },
      { action: 'block', domains: ['*.openai.com'] },
    ],
  });
  const fw = await simFirewall('palo_alto');
  const fgt = await simFirewall('fortinet');
  const assigned = await h.call('post', `${P}/${res.body.id}/assign`, {
    auth: tenant.auth,
    body: { firewall_ids: [fw, fgt] },
  });
  const [panA, fortiA] = assigned.body.assignments as Array<{ id: string }>;
  expect(await sync(panA!.id)).toMatchObject({
    status: 'failed',
    retryable: false,
    error: { reason: 'policy_not_translatable', message: expect.stringMatching(/stricter action/) },
  });
  // FortiOS evaluates its URL table in order, so the same policy is fine there
  expect(await sync(fortiA!.id)).toMatchObject({ status: 'synced' });
});

describe('DELETE /policies/v1/url-filter/{id}/assign/{fwId}', () => {
  it('404 for a firewall the policy is not assigned to, an unknown firewall or an unknown policy', async () => {
    const policy = await governancePolicy();
    const fw = await simFirewall('fortinet');
    expectError(
      await h.call('delete', `${P}/${policy.id}/assign/${fw}`, { auth: tenant.auth }),
      404,
      'resource_missing',
      'fwId',
    );
    expectError(
      await h.call('delete', `${P}/${policy.id}/assign/fw_unknown`, { auth: tenant.auth }),
      404,
      'resource_missing',
      'fwId',
    );
    expectError(
      await h.call('delete', `${P}/pol_unknown/assign/${fw}`, { auth: tenant.auth }),
      404,
      'resource_missing',
      'id',
    );
  });

  it('unassigning a never-synced assignment removes it without touching the device', async () => {
    const policy = await governancePolicy();
    const fw = await simFirewall('palo_alto', { port: await closedPort() });
    const assigned = await h.call('post', `${P}/${policy.id}/assign`, {
      auth: tenant.auth,
      body: { firewall_ids: [fw] },
    });
    // nothing was pushed: the unassign deletes it at once (docs/firewalls.md "Assignment sync states"), and a
    // removal job that still ran would find nothing to do
    const un = await h.call('delete', `${P}/${policy.id}/assign/${fw}`, { auth: tenant.auth });
    expect(un.body).toMatchObject({ id: assigned.body.assignments[0].id, sync_status: 'removed' });
    expect(await remove(assigned.body.assignments[0].id)).toEqual({
      assignment_id: assigned.body.assignments[0].id,
      status: 'skipped',
    });
  });

  it('re-assigning before the worker removed it keeps the assignment: the removal is skipped, the apply re-pushes', async () => {
    const policy = await governancePolicy();
    const fw = await simFirewall('fortinet');
    const assigned = await h.call('post', `${P}/${policy.id}/assign`, {
      auth: tenant.auth,
      body: { firewall_ids: [fw] },
    });
    const id = assigned.body.assignments[0].id as string;
    expect((await sync(id)).status).toBe('synced');
    await h.call('delete', `${P}/${policy.id}/assign/${fw}`, { auth: tenant.auth });
    const again = await h.call('post', `${P}/${policy.id}/assign`, { auth: tenant.auth, body: { firewall_ids: [fw] } });
    expect(again.body.assignments).toEqual([expect.objectContaining({ id, sync_status: 'pending' })]);
    expect(await remove(id)).toEqual({ assignment_id: id, status: 'skipped' });
    expect(await sync(id)).toEqual({ assignment_id: id, status: 'synced' });
    const profile = (await h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id } })).pushed_objects as {
      profile: string;
    };
    expect(sims.forti.state.profiles.find((p) => p.name === profile.profile)).toBeDefined();
  });

  it('a removal that cannot reach the firewall stays removing with the error', async () => {
    const policy = await governancePolicy();
    const fw = await simFirewall('fortinet');
    const assigned = await h.call('post', `${P}/${policy.id}/assign`, {
      auth: tenant.auth,
      body: { firewall_ids: [fw] },
    });
    const id = assigned.body.assignments[0].id;
    expect((await sync(id)).status).toBe('synced');
    // a connection change carries the token (docs/security.md "Tenant credentials and firewall tokens")
    const moved = await h.call('put', `/firewalls/v1/${fw}`, {
      auth: tenant.auth,
      body: { port: await closedPort(), api_token: sims.key },
    });
    expect(moved.status).toBe(200);
    await h.call('delete', `${P}/${policy.id}/assign/${fw}`, { auth: tenant.auth });
    expect(await remove(id)).toMatchObject({ status: 'failed', retryable: true, error: { reason: 'tcp_refused' } });
    expect((await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth })).body.assignments[0]).toMatchObject({
      sync_status: 'removing',
      last_error: expect.stringMatching(/^tcp_refused/),
    });
  });
});

it('no api_token of this suite appears in any response or captured log line', () => {
  h.assertNoSecretLeaks();
});
