// URL-filter policies: PUT (versioning; an assigned policy goes pending with a new sync outbox row) and DELETE
// (an assigned policy is 409 policy_assigned).
import { firewall, outboxFor, P, policyWithRules } from './policy-fixtures';
import { harnessWithTenant, expectError, type AdminHarness, type Tenant } from './harness';

let h: AdminHarness;
let tenant: Tenant;
beforeAll(async () => ({ h, tenant } = await harnessWithTenant('adminpolupdates')));
afterAll(() => h.close());

describe('PUT /policies/v1/url-filter/{id}', () => {
  it('updates given fields and bumps version; an assigned policy goes pending with a new outbox row', async () => {
    const policy = await policyWithRules(h, tenant, 1);
    const fwId = await firewall(h, tenant);
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
    expect((await outboxFor(h, assignmentId)).map((m) => m.payload)).toEqual([
      // each push carries the id of the request that caused it into the sync job's logs (docs/observability.md)
      { assignment_id: assignmentId, action: 'apply', version: 1, request_id: expect.stringMatching(/^req_/) },
      { assignment_id: assignmentId, action: 'apply', version: 2, request_id: expect.stringMatching(/^req_/) },
    ]);
    const cleared = await h.call('put', `${P}/${policy.id}`, { auth: tenant.auth, body: { description: null } });
    expect(cleared.body).toMatchObject({ description: null, default_action: 'block', version: 3 });
  });

  it.each([
    ['name empty', { name: '' }, 'parameter_invalid', 'name'],
    ['default_action unknown', { default_action: 'permit' }, 'parameter_invalid', 'default_action'],
    ['rules (edited through the rule routes)', { rules: [] }, 'parameter_unknown', 'rules'],
  ])('400 for %s', async (_label, body, code, param) => {
    const policy = await policyWithRules(h, tenant, 1);
    expectError(await h.call('put', `${P}/${policy.id}`, { auth: tenant.auth, body }), 400, code, param);
  });

  it('409 when renaming onto another policy; 404 for an unknown id', async () => {
    const a = await policyWithRules(h, tenant, 1);
    const b = await policyWithRules(h, tenant, 1);
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
    const policy = await policyWithRules(h, tenant, 2);
    const res = await h.call('delete', `${P}/${policy.id}`, { auth: tenant.auth });
    expect(res.body).toEqual({ id: policy.id, object: 'url_filter_policy', deleted: true });
    expect(await h.ctx.db.prisma.urlFilterRule.count({ where: { policy_id: policy.id } })).toBe(0);
    expectError(await h.call('get', `${P}/${policy.id}`, { auth: tenant.auth }), 404, 'resource_missing', 'id');
  });

  it('409 policy_assigned while the policy is assigned; 404 for an unknown id', async () => {
    const policy = await policyWithRules(h, tenant, 1);
    const fwId = await firewall(h, tenant);
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
