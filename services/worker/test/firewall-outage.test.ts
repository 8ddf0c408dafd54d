import { invariantViolations } from '@risk/common/observability';
import { JOBS, QueueProducer } from '@risk/common/queue';
import { startPanosSimulator } from '@risk/firewalls';
import { checkInvariants, startWorker, type RunningWorker } from '../src';
import { firewallFixtures, type FirewallFixtures } from './firewall-fixtures';
import { createWorkerHarness, waitFor, type WorkerHarness } from './harness';
import { freePort } from './worker-process';

const SIM_KEY = 'sim-key-for-outage-test-0001';

// A firewall down for longer than an apply's retry window (5 attempts with backoff, ~75 s at the defaults;
// a few hundred ms here) leaves the assignment `failed`. Once the firewall is back, the invariants pass
// re-queues it after its cool-down when the error says "unreachable", and the device converges to the latest
// version; a refusal by the device is left for a person (docs/reliability.md "Assignment sync states").
describe('an apply whose retries ran out while the firewall was down', () => {
  let h: WorkerHarness;
  let producer: QueueProducer;
  let worker: RunningWorker;
  let fx: FirewallFixtures;

  beforeAll(async () => {
    h = await createWorkerHarness('fwoutage');
    // the worker's producer as main.ts builds it, with a short FIREWALL_SYNC_BACKOFF_MS
    producer = new QueueProducer(h.ctx.redis, 'test-fwoutage-short', { firewallSyncBackoffMs: 50 });
    await producer.ping(3000);
    fx = firewallFixtures(h);
    worker = startWorker({ ...h.deps, producer }, { maintenance: false });
  });
  afterAll(async () => {
    await worker.close();
    await producer.close();
    await h.close();
  });

  const gauge = async (kind: string) =>
    (await invariantViolations.get()).values.find((v) => v.labels.kind === kind)?.value;
  const row = (id: string) => h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id } });
  /** the cool-down passing: the failure recorded six minutes ago (FAILED_RETRY_MIN is five) */
  const age = (id: string, minutes: number) =>
    h.ctx.db.pool.query(`UPDATE policy_assignments SET updated = now() - make_interval(mins => $2) WHERE id = $1`, [
      id,
      minutes,
    ]);

  it('is re-queued by the invariants pass once the firewall is back, and syncs the latest version', async () => {
    const tenantId = await fx.tenant('outage-co');
    const port = await freePort(); // nothing listens there yet: the firewall is down
    const fwId = await fx.firewall({ tenantId, type: 'palo_alto', port, apiToken: SIM_KEY });
    const policy = await fx.policy({ tenantId, rules: [{ action: 'block', domains: ['outage.example.com'] }] });
    const [id] = (await fx.assign({ tenantId, policyId: policy.id, firewallIds: [fwId] })) as [string];
    const jobId = JOBS.firewallSync.jobId({ assignment_id: id, action: 'apply', version: policy.version });

    // every attempt refused, the job failed for good (and was removed, removeOnFail): `failed`, and nothing
    // left in the queue to retry it
    await waitFor(
      'the apply job to fail for good',
      async () =>
        (await row(id)).sync_status === 'failed' &&
        (await producer.queue(JOBS.firewallSync.queue).getJob(jobId)) === undefined,
      20_000,
    );
    const failed = await row(id);
    expect(failed.sync_status).toBe('failed');
    expect(failed.last_error).toMatch(/^(tcp_refused|network_unreachable):/);

    const sim = await startPanosSimulator({ apiKey: SIM_KEY, port });
    try {
      // within its cool-down the pass leaves it alone
      expect((await checkInvariants(h.deps, { repair: true })).assignments_failed_retried).toEqual([]);
      await age(id, 6);
      const report = await checkInvariants(h.deps, { repair: false });
      expect(report.assignments_failed_retried).toEqual([id]);
      expect(await gauge('assignment_failed_unreachable')).toBe(1);
      expect((await row(id)).sync_status).toBe('failed'); // report-only changes nothing

      const repaired = await checkInvariants(h.deps, { repair: true });
      expect(repaired.assignments_failed_retried).toEqual([id]);
      // queued now (or already pushed): a second pass does not queue it again
      expect((await checkInvariants(h.deps, { repair: true })).assignments_failed_retried).toEqual([]);
      await waitFor('the assignment to sync', async () => (await row(id)).sync_status === 'synced', 20_000);
      const synced = await row(id);
      expect(synced.synced_version).toBe(policy.version);
      expect(synced.last_error).toBeNull();
      expect(JSON.stringify(sim.state.customCategories())).toContain('outage.example.com');
    } finally {
      await sim.close();
    }
  });

  it('a refusal by the device, or a push not tried in a cool-down yet, is not re-queued', async () => {
    const pool = h.ctx.db.pool;
    await pool.query(
      `INSERT INTO tenants (id, name, admin_email, org_id) VALUES ('ten_out', 'out', 'a@b.c', 'org_out')`,
    );
    await pool.query(
      `INSERT INTO firewalls (id, tenant_id, name, type, host, api_token_ciphertext, api_token_last4)
       VALUES ('fw_out', 'ten_out', 'fw', 'panos', '127.0.0.1', 'x', 'abcd'),
              ('fw_out2', 'ten_out', 'fw2', 'panos', '127.0.0.1', 'x', 'abcd')`,
    );
    await pool.query(
      `INSERT INTO url_filter_policies (id, tenant_id, name, version) VALUES ('pol_out', 'ten_out', 'p', 2)`,
    );
    // refused by the device long ago; unreachable for hours, last tried 30 minutes ago (its cool-down is as
    // long as it has been failing, capped at an hour, so it is not due yet)
    await pool.query(
      `INSERT INTO policy_assignments
         (id, tenant_id, policy_id, firewall_id, sync_status, target_version, last_error, created, updated)
       VALUES ('asg_refused', 'ten_out', 'pol_out', 'fw_out', 'failed', 2, 'auth_rejected: PAN-OS rejected the API key',
               now() - interval '3 hours', now() - interval '2 hours'),
              ('asg_backoff', 'ten_out', 'pol_out', 'fw_out2', 'failed', 2, 'tcp_refused: connection refused',
               now() - interval '5 hours', now() - interval '30 minutes')`,
    );
    const report = await checkInvariants(h.deps, { repair: true });
    expect(report.assignments_failed_retried).not.toContain('asg_refused');
    expect(report.assignments_failed_retried).not.toContain('asg_backoff');
    // the cap: however long it has failed, an hour after its last try it is due
    await pool.query(`UPDATE policy_assignments SET updated = now() - interval '61 minutes' WHERE id = 'asg_backoff'`);
    expect((await checkInvariants(h.deps, { repair: false })).assignments_failed_retried).toEqual(['asg_backoff']);
  });
});
