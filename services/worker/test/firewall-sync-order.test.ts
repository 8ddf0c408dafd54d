// Assignment sync under concurrency and faults (docs/firewalls.md "Assignment sync states"):
// pushes for one assignment are serialised and recorded by compare-and-set on the target version, and a
// removal that cannot reach the firewall ends `removal_failed`, which DELETE then explains.
import { ApiError } from '@risk/common/errors';
import { allowedHostsFor } from '@risk/common/outbound';
import { QUEUES } from '@risk/common/queue';
import {
  createConnector,
  defaultConnectorContext,
  startFortinetSimulator,
  startPanosSimulator,
  checkAssignmentsBeforeDelete,
  syncPolicyAssignment,
  type FirewallConnection,
  type PolicyModel,
  type PushedObjects,
} from '@risk/firewalls';
import type { Job } from 'bullmq';
import { startWorker, type RunningWorker } from '../src';
import { createFirewallSyncProcessor, onFirewallSyncFailed } from '../src/jobs/firewall-sync';
import { firewallFixtures, type FirewallFixtures } from './firewall-fixtures';
import { createWorkerHarness, waitFor, type WorkerHarness } from './harness';
import { scaledByLoad } from '@risk/testing';

const SIM_KEY = 'sim-key-for-worker-order-0001';

describe('firewall sync ordering and unreachable firewalls', () => {
  let h: WorkerHarness;
  let pan: Awaited<ReturnType<typeof startPanosSimulator>>;
  let forti: Awaited<ReturnType<typeof startFortinetSimulator>>;
  let fx: FirewallFixtures;

  beforeAll(async () => {
    h = await createWorkerHarness('fworder');
    pan = await startPanosSimulator({ apiKey: SIM_KEY });
    forti = await startFortinetSimulator({ apiKey: SIM_KEY });
    fx = firewallFixtures(h);
  });
  afterAll(async () => {
    await pan.close();
    await forti.close();
    await h.close();
  });

  const firewall = (tenantId: string, type: 'palo_alto' | 'fortinet', port: number) =>
    fx.firewall({ tenantId, type, port, apiToken: SIM_KEY });
  const assignmentOf = (policyId: string, firewallId: string) =>
    h.ctx.db.prisma.policyAssignment.findFirst({ where: { policy_id: policyId, firewall_id: firewallId } });

  it('two sync jobs for versions N and N+1 finishing out of order converge to N+1 (device and record)', async () => {
    const tenantId = await fx.tenant('order-co');
    const fwId = await firewall(tenantId, 'palo_alto', pan.port);
    const { id: policyId } = await fx.policy({ tenantId, rules: [{ action: 'block', domains: ['v1.example'] }] });
    const [assignmentId] = await fx.assign({ tenantId, policyId, firewallIds: [fwId] });
    const addRule = (domain: string) => fx.addRule(policyId, domain);

    // the push of version N waits at this gate, after it has read the policy and before the device sees it
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let gatedVersion = -1;
    const pushStarted: number[] = [];
    const context = defaultConnectorContext(allowedHostsFor(h.ctx.config, 'firewall'));
    const connectorFor = (c: FirewallConnection) => {
      const real = createConnector(c, context);
      return {
        test: () => real.test(),
        configureLogging: (o: Parameters<typeof real.configureLogging>[0]) => real.configureLogging(o),
        removeUrlPolicy: (p: PushedObjects) => real.removeUrlPolicy(p),
        async applyUrlPolicy(model: PolicyModel, previous: PushedObjects | null) {
          pushStarted.push(model.version);
          if (model.version === gatedVersion) await gate;
          return real.applyUrlPolicy(model, previous);
        },
      };
    };
    const options = { secretsKey: h.ctx.config.SECRETS_KEY ?? '', connectorFor };

    await addRule('v2.example'); // version 2 = N
    gatedVersion = 2;
    const jobN = syncPolicyAssignment(h.ctx.db.prisma, assignmentId!, options);
    await waitFor('the push of version N to start', () => pushStarted.includes(2));
    await addRule('v3.example'); // version 3 = N+1
    let jobNPlus1Done = false;
    const jobNPlus1 = syncPolicyAssignment(h.ctx.db.prisma, assignmentId!, options).finally(() => {
      jobNPlus1Done = true;
    });
    // N+1 either finishes first (nothing orders the two) or waits for N; give it the chance to overtake
    await waitFor(
      'the N+1 job to finish or to wait for the N job',
      async () => {
        if (jobNPlus1Done) return true;
        const waiting = await h.ctx.db.prisma.$queryRaw<Array<{ n: bigint }>>`
          SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`;
        return Number(waiting[0]!.n) > 0;
      },
      10_000,
    );
    release();
    await Promise.all([jobN, jobNPlus1]);

    const row = await h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id: assignmentId } });
    expect(row).toMatchObject({ sync_status: 'synced', target_version: 3, synced_version: 3 });
    expect((row.pushed_objects as unknown as PushedObjects).policy_version).toBe(3);
    const onDevice = JSON.stringify(pan.state.customCategories());
    expect(onDevice).toContain('v3.example');
    expect(onDevice).toContain('v2.example'); // v3 keeps v2's rule: the device holds version 3, not 2
    const profile = (row.pushed_objects as unknown as PushedObjects).profile;
    expect(pan.state.evaluate(profile, 'v3.example')).toBe('block');
  });

  it(
    'a firewall down while a policy is assigned, reordered and unassigned converges to the latest version or to removal_failed, which DELETE explains and ?force=true overrides',
    async () => {
      const worker: RunningWorker = startWorker(h.deps, { maintenance: false });
      const queue = h.producer.queue(QUEUES.firewallSync);
      // BullMQ retries with a 5 s exponential backoff; promote the delayed retries so the test does not sleep
      const promoteRetries = async () => {
        for (const job of await queue.getDelayed()) await job.promote().catch(() => undefined);
      };
      try {
        const tenantId = await fx.tenant('down-co');
        const panId = await firewall(tenantId, 'palo_alto', pan.port);
        const fortiId = await firewall(tenantId, 'fortinet', forti.port);
        const { id: policyId, ruleIds } = await fx.policy({
          tenantId,
          rules: [
            { action: 'block', domains: ['one.example'] },
            { action: 'alert', domains: ['two.example'] },
          ],
        });
        await fx.assign({ tenantId, policyId, firewallIds: [panId, fortiId] });
        await waitFor('both assignments synced at version 1', async () => {
          const rows = await h.ctx.db.prisma.policyAssignment.findMany({ where: { policy_id: policyId } });
          return rows.length === 2 && rows.every((r) => r.sync_status === 'synced' && r.synced_version === 1);
        });

        // both firewalls go down; the policy is reordered twice (versions 2 and 3)
        pan.setDown(true);
        forti.setDown(true);
        for (const order of [[...ruleIds].reverse(), ruleIds]) await fx.reorder(policyId, order);
        await waitFor('a push to the PAN-OS firewall to fail', async () => {
          const row = await assignmentOf(policyId, panId);
          return row?.sync_status === 'failed' && row;
        });
        // PAN-OS comes back: its assignment converges to version 3 and stays there once every retry has run
        pan.setDown(false);
        await waitFor(
          'PAN-OS synced at version 3',
          async () => {
            await promoteRetries();
            const row = await assignmentOf(policyId, panId);
            return row?.sync_status === 'synced' && row.synced_version === 3;
          },
          60_000,
        );
        await waitFor(
          'no PAN-OS retry left',
          async () => {
            await promoteRetries();
            const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'prioritized']);
            return jobs.every((j) => (j.data as { assignment_id: string }).assignment_id !== panId);
          },
          60_000,
        );
        const panRow = await assignmentOf(policyId, panId);
        expect(panRow).toMatchObject({ sync_status: 'synced', target_version: 3, synced_version: 3 });
        expect((panRow!.pushed_objects as unknown as PushedObjects).policy_version).toBe(3);
        expect(Object.values(pan.state.customCategories()).flat()).toEqual(
          expect.arrayContaining(['one.example', 'two.example']),
        );

        // unassign from both while both are down: removals end removal_failed after their retries
        pan.setDown(true);
        for (const fwId of [panId, fortiId]) {
          await fx.unassign(policyId, fwId);
          expect((await assignmentOf(policyId, fwId))!.sync_status).toBe('removing');
        }
        await waitFor(
          'both removals to end removal_failed',
          async () => {
            await promoteRetries();
            const rows = await h.ctx.db.prisma.policyAssignment.findMany({ where: { policy_id: policyId } });
            return rows.length === 2 && rows.every((r) => r.sync_status === 'removal_failed');
          },
          90_000,
        );
        const shown = await h.ctx.db.prisma.policyAssignment.findMany({ where: { policy_id: policyId } });
        expect(shown).toHaveLength(2);
        for (const a of shown) {
          expect(a.sync_status).toBe('removal_failed');
          expect(a.last_error).toMatch(/^\w+: /);
        }
        // never an older version: PAN-OS kept version 3, FortiOS the version 1 it last received
        expect((await assignmentOf(policyId, panId))!.synced_version).toBe(3);
        expect((await assignmentOf(policyId, fortiId))!.synced_version).toBe(1);

        // the user retries the PAN-OS removal once the firewall is back: it is removed from the device
        pan.setDown(false);
        await fx.unassign(policyId, panId);
        expect((await assignmentOf(policyId, panId))!.sync_status).toBe('removing');
        await waitFor(
          'the PAN-OS assignment removed',
          async () => (await assignmentOf(policyId, panId)) === null,
          60_000,
        );
        // (the simulator is shared with the first test, whose categories stay: look at this policy's domains)
        const remaining = Object.values(pan.state.customCategories()).flat();
        expect(remaining).not.toContain('one.example');
        expect(remaining).not.toContain('two.example');

        // DELETE explains the FortiOS removal failure; ?force=true deletes and says what may be left (the check
        // the admin API's DELETE /policies/v1/url-filter/{id} and DELETE /firewalls/v1/{id} make)
        const prisma = h.ctx.db.prisma;
        const refusal = (subject: { policy_id: string } | { firewall_id: string }) =>
          checkAssignmentsBeforeDelete(prisma, subject, false).then(
            () => null,
            (err: unknown) => err,
          );
        const refused = await refusal({ policy_id: policyId });
        expect(refused).toBeInstanceOf(ApiError);
        expect((refused as ApiError).code).toBe('policy_removal_failed');
        expect((refused as ApiError).message).toContain(fortiId);
        expect((refused as ApiError).message).toContain('removal_failed');
        expect((refused as ApiError).message).toContain('?force=true');
        const fwRefused = await refusal({ firewall_id: fortiId });
        expect((fwRefused as ApiError).code).toBe('policy_removal_failed');
        expect((fwRefused as ApiError).message).toContain(policyId);

        const forced = await checkAssignmentsBeforeDelete(prisma, { policy_id: policyId }, true);
        expect(forced.left_on_device).toEqual([
          expect.objectContaining({ firewall_id: fortiId, policy_id: policyId, sync_status: 'removal_failed' }),
        ]);
        expect(forced.left_on_device![0]!.objects.length).toBeGreaterThan(0);
        await prisma.urlFilterPolicy.delete({ where: { id: policyId } });
        expect(forti.state.profiles).toHaveLength(1); // what the note says: still on the device
        expect(await h.ctx.db.prisma.urlFilterPolicy.count({ where: { id: policyId } })).toBe(0);
      } finally {
        pan.setDown(false);
        forti.setDown(false);
        await worker.close();
      }
    },
    scaledByLoad(240_000),
  );

  it('a removal job that BullMQ fails for good (stalled on its last attempt) ends removal_failed, an earlier failure does not', async () => {
    const tenantId = await fx.tenant('stalled-co');
    const fwId = await firewall(tenantId, 'fortinet', forti.port);
    const { id: policyId } = await fx.policy({ tenantId, rules: [{ action: 'block', domains: ['stalled.example'] }] });
    const [applied] = (await fx.assign({ tenantId, policyId, firewallIds: [fwId] })) as [string];
    // pushed first: an assignment that never reached the device is deleted at once on unassign
    await createFirewallSyncProcessor(h.deps)({ data: { assignment_id: applied, action: 'apply', version: 1 } });
    const assignmentId = await fx.unassign(policyId, fwId);
    expect((await assignmentOf(policyId, fwId))!.sync_status).toBe('removing');
    const job = (attemptsMade: number) =>
      ({
        data: { assignment_id: assignmentId, action: 'remove', version: 1 },
        opts: { attempts: 5 },
        attemptsMade,
        processedOn: Date.now(),
        timestamp: Date.now(),
      }) as unknown as Job;
    const stalled = new Error('job stalled more than allowable limit');
    await onFirewallSyncFailed(h.deps, job(2), stalled);
    expect((await assignmentOf(policyId, fwId))!.sync_status).toBe('removing');
    await onFirewallSyncFailed(h.deps, job(5), stalled);
    expect(await assignmentOf(policyId, fwId)).toMatchObject({
      sync_status: 'removal_failed',
      last_error: 'job_failed: job stalled more than allowable limit',
    });
  });

  it("a removal attempt that fails records its number and when the job's backoff runs the next one", async () => {
    const tenantId = await fx.tenant('progress-co');
    const fwId = await firewall(tenantId, 'fortinet', forti.port);
    const { id: policyId } = await fx.policy({ tenantId, rules: [{ action: 'block', domains: ['progress.example'] }] });
    const [id] = (await fx.assign({ tenantId, policyId, firewallIds: [fwId] })) as [string];
    const process = createFirewallSyncProcessor(h.deps);
    expect(await process({ data: { assignment_id: id, action: 'apply', version: 1 } })).toMatchObject({
      status: 'synced',
    });
    forti.setDown(true);
    try {
      await fx.unassign(policyId, fwId);
      // BullMQ's second attempt (one made) of a job with the catalogue's exponential backoff of 5 s
      const backoff = { type: 'exponential', delay: 5000 };
      const job = { data: { assignment_id: id, action: 'remove', version: 1 }, opts: { attempts: 5, backoff } };
      await expect(process({ ...job, attemptsMade: 1 })).rejects.toThrow();
      const row = await h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id } });
      expect(row).toMatchObject({ sync_status: 'removing', removal_attempts: 2, last_error: expect.any(String) });
      // the next attempt runs 10 s (5 s · 2^1) after the failure: recorded just before the row's update time
      const ahead = row.next_attempt_at!.getTime() - row.updated.getTime();
      expect(ahead).toBeGreaterThan(0);
      expect(ahead).toBeLessThanOrEqual(10_000);
      const refused = await checkAssignmentsBeforeDelete(h.ctx.db.prisma, { policy_id: policyId }, true).then(
        () => null,
        (err: unknown) => err as ApiError,
      );
      expect(refused?.code).toBe('policy_removal_in_progress');
      expect(refused?.message).toContain('attempt 2 of 5 failed');
      expect(refused?.message).toContain(row.next_attempt_at!.toISOString());
      // the last attempt fails: removal_failed, no next attempt
      await expect(process({ ...job, attemptsMade: 4 })).rejects.toThrow();
      expect(await h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id } })).toMatchObject({
        sync_status: 'removal_failed',
        removal_attempts: 5,
        next_attempt_at: null,
      });
    } finally {
      forti.setDown(false);
    }
  });
});
