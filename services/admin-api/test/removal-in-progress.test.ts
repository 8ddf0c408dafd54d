// DELETE of a policy (or firewall) while its unassign's removal is still being retried against an unreachable
// firewall (docs/firewalls.md "Assignment sync states"): 409 policy_removal_in_progress says where the removal
// stands (attempt n of N, the last error, when the next attempt runs, that ?force=true works once it fails), with
// Retry-After; an assignment whose push never reached the device is removed at once on unassign. Real admin app,
// Postgres and a PAN-OS simulator made unreachable with setDown.
import { JOBS } from '@risk/common/queue';
import {
  removePolicyAssignment,
  startPanosSimulator,
  syncPolicyAssignment,
  type FirewallConnection,
  type PanosSimulatorState,
  type PushedObjects,
  type SimulatorHandle,
} from '@risk/firewalls';
import { harnessWithTenant, expectError, type AdminHarness, type Tenant } from './harness';
import { assignedToPanos, P } from './policy-fixtures';

let h: AdminHarness;
let tenant: Tenant;
let pan: SimulatorHandle<PanosSimulatorState>;
let simKey: string;
const N = JOBS.firewallSync.options.attempts;

beforeAll(async () => {
  ({ h, tenant } = await harnessWithTenant('adminremovalprogress'));
  simKey = h.newApiToken();
  pan = await startPanosSimulator({ apiKey: simKey });
});
afterAll(async () => {
  await pan.close();
  await h.close();
});
afterEach(() => pan.setDown(false));

const opts = (extra: { lastAttempt?: boolean; attempt?: number; retryDelayMs?: number } = {}) => ({
  secretsKey: h.ctx.config.SECRETS_KEY!,
  connectorFor: h.connectorFor,
  ...extra,
});

/** A policy assigned to a fresh PAN-OS firewall (not pushed yet). */
const assigned = () => assignedToPanos(h, tenant, { port: pan.port, apiKey: simKey });

it('DELETE while the removal retries says attempt n of N, the last error, the next attempt and ?force=true', async () => {
  const { policyId, fwId, assignmentId } = await assigned();
  expect(await syncPolicyAssignment(h.ctx.db.prisma, assignmentId, opts())).toMatchObject({ status: 'synced' });
  pan.setDown(true);
  const un = await h.call('delete', `${P}/${policyId}/assign/${fwId}`, { auth: tenant.auth });
  expect(un.body.sync_status).toBe('removing');

  // before the first attempt has finished
  let err = expectError(
    await h.call('delete', `${P}/${policyId}`, { auth: tenant.auth }),
    409,
    'policy_removal_in_progress',
    'id',
  );
  expect(err.type).toBe('conflict_error');
  expect(err.message).toContain(`attempt 1 of ${N} has not finished yet`);
  expect(err.message).not.toMatch(/unassign it first/);

  // the worker's first attempt fails against the unreachable firewall; the job retries in a minute
  const delayMs = 60_000;
  expect(
    await removePolicyAssignment(h.ctx.db.prisma, assignmentId, opts({ attempt: 1, retryDelayMs: delayMs })),
  ).toMatchObject({ status: 'failed', retryable: true });
  const row = await h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id: assignmentId } });
  expect(row).toMatchObject({ sync_status: 'removing', removal_attempts: 1, last_error: expect.any(String) });
  const next = row.next_attempt_at!;
  expect(next.getTime()).toBeGreaterThan(row.updated.getTime());
  expect(next.getTime() - row.updated.getTime()).toBeLessThanOrEqual(delayMs);

  const res = await h.call('delete', `${P}/${policyId}`, { auth: tenant.auth });
  err = expectError(res, 409, 'policy_removal_in_progress', 'id');
  expect(err.message).toContain(fwId);
  expect(err.message).toContain(`attempt 1 of ${N} failed (${row.last_error!.slice(0, 40)}`);
  expect(err.message).toContain(`the next attempt runs at ${next.toISOString()}`);
  expect(err.message).toContain('?force=true');
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(delayMs / 1000);
  // the firewall's DELETE says the same from its side, and force does not override a removal in progress
  const fwErr = expectError(
    await h.call('delete', `/firewalls/v1/${fwId}?force=true`, { auth: tenant.auth }),
    409,
    'policy_removal_in_progress',
    'id',
  );
  expect(fwErr.message).toContain(`policy ${policyId}`);
  expect(fwErr.message).toContain(`attempt 1 of ${N} failed`);

  // the last attempt fails: removal_failed, and ?force=true now deletes the policy
  await removePolicyAssignment(h.ctx.db.prisma, assignmentId, opts({ attempt: N, lastAttempt: true }));
  expect(await h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id: assignmentId } })).toMatchObject({
    sync_status: 'removal_failed',
    removal_attempts: N,
    next_attempt_at: null,
  });
  expectError(await h.call('delete', `${P}/${policyId}`, { auth: tenant.auth }), 409, 'policy_removal_failed', 'id');
  const forced = await h.call('delete', `${P}/${policyId}?force=true`, { auth: tenant.auth });
  expect(forced.status).toBe(200);
  expect(forced.body).toMatchObject({ id: policyId, deleted: true, left_on_device: [expect.any(Object)] });
});

it('an assignment whose push never reached the unreachable firewall is removed at once', async () => {
  pan.setDown(true);
  const { policyId, fwId, assignmentId } = await assigned();
  // the apply fails: nothing was pushed
  expect(await syncPolicyAssignment(h.ctx.db.prisma, assignmentId, opts())).toMatchObject({ status: 'failed' });
  const outboxBefore = await h.ctx.db.prisma.outboxMessage.count({ where: { kind: 'firewall_sync' } });
  const un = await h.call('delete', `${P}/${policyId}/assign/${fwId}`, { auth: tenant.auth });
  expect(un.status).toBe(200);
  expect(un.body).toMatchObject({ id: assignmentId, sync_status: 'removed' });
  expect(await h.ctx.db.prisma.policyAssignment.findUnique({ where: { id: assignmentId } })).toBeNull();
  // no removal job queued: nothing to retry against the firewall
  expect(await h.ctx.db.prisma.outboxMessage.count({ where: { kind: 'firewall_sync' } })).toBe(outboxBefore);
  const shown = await h.call('get', `${P}/${policyId}`, { auth: tenant.auth });
  expect(shown.body.assignments).toEqual([]);
  expect(await h.call('delete', `${P}/${policyId}`, { auth: tenant.auth })).toMatchObject({ status: 200 });
});

it('an unassign during a push in flight waits for the worker: the push may be reaching the device', async () => {
  const { policyId, fwId, assignmentId } = await assigned();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let pushing!: () => void;
  const started = new Promise<void>((resolve) => (pushing = resolve));
  const gated = (c: FirewallConnection) => {
    const real = h.connectorFor(c);
    return Object.assign(Object.create(real) as typeof real, {
      async applyUrlPolicy(...args: Parameters<typeof real.applyUrlPolicy>): Promise<PushedObjects> {
        pushing();
        await gate;
        return real.applyUrlPolicy(...args);
      },
    });
  };
  const push = syncPolicyAssignment(h.ctx.db.prisma, assignmentId, { ...opts(), connectorFor: gated });
  await started;
  const un = await h.call('delete', `${P}/${policyId}/assign/${fwId}`, { auth: tenant.auth });
  expect(un.body).toMatchObject({ id: assignmentId, sync_status: 'removing' });
  release();
  await push;
  // what the push created is recorded, and the queued removal deletes it from the device
  expect(await removePolicyAssignment(h.ctx.db.prisma, assignmentId, opts())).toMatchObject({ status: 'removed' });
  expect(await h.ctx.db.prisma.policyAssignment.findUnique({ where: { id: assignmentId } })).toBeNull();
});
