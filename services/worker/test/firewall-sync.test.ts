import { newRequestId } from '@risk/db';
import { startFortinetSimulator, startPanosSimulator } from '@risk/firewalls';
import { UnrecoverableError } from 'bullmq';
import { createFirewallSyncProcessor } from '../src/jobs/firewall-sync';
import { startWorker, type RunningWorker } from '../src';
import { firewallFixtures, type FirewallFixtures } from './firewall-fixtures';
import { createWorkerHarness, waitFor, type WorkerHarness } from './harness';

const SIM_KEY = 'sim-key-for-worker-sync-0001';

describe('URL-filter policy sync through the worker (policy writes → outbox → queue → firewall simulators)', () => {
  let h: WorkerHarness;
  let worker: RunningWorker;
  let pan: Awaited<ReturnType<typeof startPanosSimulator>>;
  let forti: Awaited<ReturnType<typeof startFortinetSimulator>>;
  let fx: FirewallFixtures;

  beforeAll(async () => {
    h = await createWorkerHarness('fwsync');
    pan = await startPanosSimulator({ apiKey: SIM_KEY });
    forti = await startFortinetSimulator({ apiKey: SIM_KEY });
    fx = firewallFixtures(h);
    worker = startWorker(h.deps, { maintenance: false });
  });
  afterAll(async () => {
    await worker.close();
    await pan.close();
    await forti.close();
    await h.close();
  });

  it('assign pushes the policy to both vendors, a change re-syncs with the new version, unassign removes it', async () => {
    const tenantId = await fx.tenant('sync-co');
    const fws = [
      await fx.firewall({ tenantId, type: 'palo_alto', port: pan.port, apiToken: SIM_KEY }),
      await fx.firewall({ tenantId, type: 'fortinet', port: forti.port, apiToken: SIM_KEY }),
    ];
    const policy = await fx.policy({ tenantId, rules: [{ action: 'block', domains: ['*.deepseek.com'] }] });
    const requestId = newRequestId();
    const assignmentIds = await fx.assign({ tenantId, policyId: policy.id, firewallIds: fws, requestId });

    const synced = (version: number) =>
      waitFor(`assignments synced at version ${version}`, async () => {
        const rows = await h.ctx.db.prisma.policyAssignment.findMany({ where: { policy_id: policy.id } });
        return (
          rows.length === 2 && rows.every((r) => r.sync_status === 'synced' && r.synced_version === version) && rows
        );
      });
    await synced(policy.version);
    expect(JSON.stringify(pan.state.customCategories())).toContain('deepseek.com');
    // the request's id travelled in the outbox row and the job data into the sync job's log lines
    expect(requestId).toMatch(/^req_/);
    const syncLines = h.ctx.logLines
      .map((l) => JSON.parse(l) as { message?: string; assignment_id?: string; request_id?: string })
      .filter((l) => l.message === 'firewall sync finished' && l.request_id === requestId);
    expect(syncLines.map((l) => l.assignment_id).sort()).toEqual([...assignmentIds].sort());
    expect(forti.state.profiles).toHaveLength(1);

    await fx.addRule(policy.id, 'chat.mistral.ai');
    const current = await h.ctx.db.prisma.urlFilterPolicy.findUniqueOrThrow({ where: { id: policy.id } });
    expect(current.version).toBeGreaterThan(policy.version);
    await synced(current.version);
    expect(JSON.stringify(pan.state.customCategories())).toContain('chat.mistral.ai');

    await fx.unassign(policy.id, fws[0]!);
    await waitFor(
      'assignment removed',
      async () => (await h.ctx.db.prisma.policyAssignment.count({ where: { firewall_id: fws[0] } })) === 0,
    );
    expect(pan.state.customCategories()).toEqual({});
  });
  it('a firewall that rejects the key ends failed with auth_rejected, and the job is not retried', async () => {
    const tenantId = await fx.tenant('wrong-key-co');
    const fwId = await fx.firewall({ tenantId, type: 'palo_alto', port: pan.port, apiToken: 'not-the-sim-key-0000' });
    const policy = await fx.policy({ tenantId, rules: [{ action: 'block', domains: ['grok.com'] }] });
    const [assignmentId] = await fx.assign({ tenantId, policyId: policy.id, firewallIds: [fwId] });
    const failed = await waitFor('assignment failed', async () => {
      const row = await h.ctx.db.prisma.policyAssignment.findUnique({ where: { id: assignmentId } });
      return row?.sync_status === 'failed' && row;
    });
    expect(failed.last_error).toMatch(/^auth_rejected: PAN-OS rejected the API key/);
    expect(failed.last_error).not.toContain('not-the-sim-key-0000');
    expect(failed).toMatchObject({ target_version: 1, synced_version: null });
    // the job handler marks a permanent failure unrecoverable, so BullMQ does not retry it
    const processor = createFirewallSyncProcessor(h.deps);
    await expect(
      processor({ data: { assignment_id: assignmentId!, action: 'apply', version: 1 } }),
    ).rejects.toBeInstanceOf(UnrecoverableError);
  });
});
