// A removal that cannot reach the firewall (docs/firewalls.md "Assignment sync states"): it stays
// `removing` while attempts remain, ends `removal_failed` on the last one, is left alone by policy changes,
// can be retried by unassigning (or re-assigning) again, and DELETE of the policy or the firewall explains
// it and accepts ?force=true, whose answer lists what may be left on the device.
import {
  describePushedObjects,
  endRemovalAfterFailedJob,
  type FirewallConnection,
  removePolicyAssignment,
  startPanosSimulator,
  syncPolicyAssignment,
  type PanosSimulatorState,
  type PushedObjects,
  type SimulatorHandle,
} from '@risk/firewalls';
import { harnessWithTenant, expectError, unique, type AdminHarness, type Tenant } from './harness';
import { assignedToPanos, P } from './policy-fixtures';

let h: AdminHarness;
let tenant: Tenant;
let pan: SimulatorHandle<PanosSimulatorState>;
let simKey: string;

beforeAll(async () => {
  ({ h, tenant } = await harnessWithTenant('adminremovalfailed'));
  simKey = h.newApiToken();
  pan = await startPanosSimulator({ apiKey: simKey });
});
afterAll(async () => {
  await pan.close();
  await h.close();
});

const opts = (lastAttempt = false) => ({
  secretsKey: h.ctx.config.SECRETS_KEY!,
  connectorFor: h.connectorFor,
  lastAttempt,
});

/** A policy pushed to a PAN-OS firewall, then unassigned while the firewall is down. */
async function removingWhileDown() {
  const { policyId, fwId, fwName, assignmentId } = await assignedToPanos(h, tenant, { port: pan.port, apiKey: simKey });
  expect(await syncPolicyAssignment(h.ctx.db.prisma, assignmentId, opts())).toMatchObject({ status: 'synced' });
  pan.setDown(true);
  const un = await h.call('delete', `${P}/${policyId}/assign/${fwId}`, { auth: tenant.auth });
  expect(un.body.sync_status).toBe('removing');
  return { policyId, fwId, fwName, assignmentId };
}

afterEach(() => pan.setDown(false));

it('stays removing while attempts remain and ends removal_failed with its error on the last one', async () => {
  const { policyId, assignmentId } = await removingWhileDown();
  expect(await removePolicyAssignment(h.ctx.db.prisma, assignmentId, opts())).toMatchObject({
    status: 'failed',
    retryable: true,
  });
  let shown = await h.call('get', `${P}/${policyId}`, { auth: tenant.auth });
  expect(shown.body.assignments[0]).toMatchObject({ sync_status: 'removing', last_error: expect.any(String) });

  expect(await removePolicyAssignment(h.ctx.db.prisma, assignmentId, opts(true))).toMatchObject({
    status: 'removal_failed',
    retryable: false,
  });
  shown = await h.call('get', `${P}/${policyId}`, { auth: tenant.auth });
  expect(shown.body.assignments[0]).toMatchObject({
    sync_status: 'removal_failed',
    last_error: expect.stringMatching(/^\w+: /),
  });
  // a late duplicate of the removal job changes nothing
  expect(await removePolicyAssignment(h.ctx.db.prisma, assignmentId, opts(true))).toMatchObject({
    status: 'skipped',
  });
});

it('a policy change leaves a removal_failed assignment alone (an unassigned policy is not pushed again)', async () => {
  const { policyId, assignmentId } = await removingWhileDown();
  await removePolicyAssignment(h.ctx.db.prisma, assignmentId, opts(true));
  const outboxBefore = await h.ctx.db.prisma.outboxMessage.count({ where: { kind: 'firewall_sync' } });
  const rule = await h.call('post', `${P}/${policyId}/rules`, {
    auth: tenant.auth,
    body: { action: 'block', domains: ['later.example'] },
  });
  expect(rule.status).toBe(201);
  const row = await h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id: assignmentId } });
  expect(row).toMatchObject({ sync_status: 'removal_failed', target_version: 1 });
  expect(await h.ctx.db.prisma.outboxMessage.count({ where: { kind: 'firewall_sync' } })).toBe(outboxBefore);
});

it('the user retries: unassigning again goes back to removing and, with the firewall back, removes it', async () => {
  const { policyId, fwId, assignmentId } = await removingWhileDown();
  await removePolicyAssignment(h.ctx.db.prisma, assignmentId, opts(true));
  pan.setDown(false);
  const retry = await h.call('delete', `${P}/${policyId}/assign/${fwId}`, { auth: tenant.auth });
  expect(retry.status).toBe(200);
  expect(retry.body).toMatchObject({ id: assignmentId, sync_status: 'removing', last_error: null });
  expect(await removePolicyAssignment(h.ctx.db.prisma, assignmentId, opts())).toMatchObject({ status: 'removed' });
  expect((await h.call('delete', `${P}/${policyId}`, { auth: tenant.auth })).status).toBe(200);
});

it('re-assigning a removal_failed assignment makes it pending again', async () => {
  const { policyId, fwId, assignmentId } = await removingWhileDown();
  await removePolicyAssignment(h.ctx.db.prisma, assignmentId, opts(true));
  const again = await h.call('post', `${P}/${policyId}/assign`, { auth: tenant.auth, body: { firewall_ids: [fwId] } });
  expect(again.body.assignments).toEqual([
    expect.objectContaining({ id: assignmentId, sync_status: 'pending', last_error: null }),
  ]);
});

it('DELETE of the firewall explains removal_failed (409 policy_removal_failed); ?force=true deletes it and lists what is left', async () => {
  const { policyId, fwId, assignmentId } = await removingWhileDown();
  await removePolicyAssignment(h.ctx.db.prisma, assignmentId, opts(true));
  const err = expectError(
    await h.call('delete', `/firewalls/v1/${fwId}`, { auth: tenant.auth }),
    409,
    'policy_removal_failed',
    'id',
  );
  expect(err.type).toBe('conflict_error');
  expect(err.message).toContain(policyId);
  expect(err.message).toContain('removal_failed');
  expect(err.message).toContain('?force=true');
  expect((await h.call('get', `/firewalls/v1/${fwId}`, { auth: tenant.auth })).status).toBe(200);

  const pushed = (await h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id: assignmentId } }))
    .pushed_objects as unknown as PushedObjects;
  const forced = await h.call('delete', `/firewalls/v1/${fwId}?force=true`, { auth: tenant.auth });
  expect(forced.status).toBe(200);
  expect(forced.body).toEqual({
    id: fwId,
    object: 'firewall',
    deleted: true,
    left_on_device: [
      {
        firewall_id: fwId,
        firewall_name: expect.any(String),
        host: '127.0.0.1',
        policy_id: policyId,
        policy_name: expect.any(String),
        sync_status: 'removal_failed',
        last_error: expect.stringMatching(/^\w+: /),
        objects: describePushedObjects(pushed),
      },
    ],
  });
  expect(forced.body.left_on_device[0].objects[0]).toContain(pushed.profile);
  expect((await h.call('get', `/firewalls/v1/${fwId}`, { auth: tenant.auth })).status).toBe(404);
  // the policy has no assignment left and deletes normally
  expect((await h.call('delete', `${P}/${policyId}`, { auth: tenant.auth })).body).toEqual({
    id: policyId,
    object: 'url_filter_policy',
    deleted: true,
  });
});

it('?force=true never overrides a live assignment, and force must be true or false', async () => {
  const { policyId, fwId } = await removingWhileDown();
  // the removal is still in progress (removing): not removal_failed, so force does not apply; the answer says the
  // removal is under way (removal-in-progress.test.ts checks what it says)
  const err = expectError(
    await h.call('delete', `${P}/${policyId}?force=true`, { auth: tenant.auth }),
    409,
    'policy_removal_in_progress',
    'id',
  );
  expect(err.message).toMatch(/in progress/);
  expectError(
    await h.call('delete', `/firewalls/v1/${fwId}?force=true`, { auth: tenant.auth }),
    409,
    'policy_removal_in_progress',
    'id',
  );
  // a live assignment (pending, synced, failed) still asks to unassign first, force or not
  const other = await h.createPolicy(tenant.auth, {
    name: unique('pol'),
    rules: [{ action: 'block', domains: ['x.example'] }],
  });
  await h.call('post', `${P}/${other.body.id}/assign`, { auth: tenant.auth, body: { firewall_ids: [fwId] } });
  expect(
    expectError(
      await h.call('delete', `${P}/${other.body.id}?force=true`, { auth: tenant.auth }),
      409,
      'policy_assigned',
      'id',
    ).message,
  ).toMatch(/unassign it first/);
  expectError(
    await h.call('delete', `${P}/${policyId}?force=yes`, { auth: tenant.auth }),
    400,
    'parameter_invalid',
    'force',
  );
});

it('an unassign sent again during a failing last attempt keeps the removal going (the retry owns it)', async () => {
  const { policyId, fwId, assignmentId } = await removingWhileDown();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let attempting!: () => void;
  const started = new Promise<void>((resolve) => (attempting = resolve));
  const gated = (c: FirewallConnection) => {
    const real = h.connectorFor(c);
    return Object.assign(Object.create(real) as typeof real, {
      async removeUrlPolicy(pushed: PushedObjects) {
        attempting();
        await gate;
        return real.removeUrlPolicy(pushed);
      },
    });
  };
  const lastAttempt = removePolicyAssignment(h.ctx.db.prisma, assignmentId, { ...opts(true), connectorFor: gated });
  await started;
  const retry = await h.call('delete', `${P}/${policyId}/assign/${fwId}`, { auth: tenant.auth });
  expect(retry.body.sync_status).toBe('removing');
  release();
  expect(await lastAttempt).toMatchObject({ status: 'skipped' });
  const row = await h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id: assignmentId } });
  expect(row.sync_status).toBe('removing');
});

it('a removal job that failed for good without recording it ends removal_failed, unless the row changed since its attempt began', async () => {
  const { assignmentId } = await removingWhileDown();
  const row = await h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id: assignmentId } });
  // the attempt began before the latest change of the row: a newer unassign or re-assign owns it
  const attemptStartedAt = new Date(row.updated.getTime() - 1);
  expect(await endRemovalAfterFailedJob(h.ctx.db.prisma, { assignmentId, attemptStartedAt, message: 'x' })).toBe(false);
  expect((await h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id: assignmentId } })).sync_status).toBe(
    'removing',
  );
  expect(
    await endRemovalAfterFailedJob(h.ctx.db.prisma, {
      assignmentId,
      attemptStartedAt: new Date(),
      message: 'job_failed: job stalled more than allowable limit',
    }),
  ).toBe(true);
  expect(await h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id: assignmentId } })).toMatchObject({
    sync_status: 'removal_failed',
    last_error: 'job_failed: job stalled more than allowable limit',
  });
});
