// A policy sync pushes to a firewall a tenant registered, i.e. possibly a host the tenant controls (docs/security.md
// "Firewall replies"). The audit's attack held the worker's event loop ~9.8 s per connector call (BullMQ lock
// renewals, the outbox relay and webhooks behind it): the reply was read whole (8 MiB) and parsed on the main thread.
// Through the worker's own sync path, here: the event loop stays free, and the sync fails with a clear error.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { attributeBombXml, closeReplyParsers, REPLY_CAP_BYTES, startHostileFirewall } from '@risk/firewalls';
import type { HostileFirewallState, SimulatorHandle } from '@risk/firewalls';
import * as xmlTree from '@risk/firewalls/src/lib/xml-tree';
import { currentSlowdown } from '@risk/time-budget';
import { startWorker, type RunningWorker } from '../src';
import { firewallFixtures, type FirewallFixtures } from './firewall-fixtures';
import { createWorkerHarness, waitFor, type WorkerHarness } from './harness';

const KEY = 'hostile-firewall-key-0001';

let h: WorkerHarness;
let worker: RunningWorker;
let fx: FirewallFixtures;
let bomb: SimulatorHandle<HostileFirewallState>;
let heavy: SimulatorHandle<HostileFirewallState>;

beforeAll(async () => {
  h = await createWorkerHarness('fwhostile');
  fx = firewallFixtures(h);
  // the audit's reply: 8 MiB of attributes on <response>
  bomb = await startHostileFirewall(attributeBombXml(8 * 1024 * 1024));
  // within the cap, so read whole, and a PAN-OS "success" to every call: its parse costs a main thread 50–150 ms
  heavy = await startHostileFirewall(attributeBombXml(REPLY_CAP_BYTES - 1024));
  worker = startWorker(h.deps, { maintenance: false });
});
afterAll(async () => {
  await worker?.close();
  await bomb?.close();
  await heavy?.close();
  await closeReplyParsers();
  await h?.close();
});

/** The longest the worker's event loop (this process's main thread) was blocked while `work` ran, in ms. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ stallMs: number; result: T }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    const result = await work();
    return { stallMs: histogram.max / 1e6, result };
  } finally {
    histogram.disable();
  }
}

const assignAndWait = async (port: number, done: (row: { sync_status: string }) => boolean) => {
  const tenantId = await fx.tenant(`hostile-${port}`);
  const fwId = await fx.firewall({ tenantId, type: 'palo_alto', port, apiToken: KEY });
  const policy = await fx.policy({ tenantId, rules: [{ action: 'block', domains: ['*.deepseek.com'] }] });
  const [assignmentId] = await fx.assign({ tenantId, policyId: policy.id, firewallIds: [fwId] });
  return waitFor(`assignment on port ${port} settled`, async () => {
    const row = await h.ctx.db.prisma.policyAssignment.findUnique({ where: { id: assignmentId } });
    return row && done(row) && row;
  });
};

describe('policy sync to a hostile firewall', () => {
  it('an 8 MiB reply fails the sync with a clear error and never blocks the event loop', async () => {
    const { stallMs, result: row } = await longestStall(() =>
      assignAndWait(bomb.port, (r) => r.sync_status === 'failed'),
    );
    expect(row.last_error).toMatch(
      new RegExp(
        `^unexpected_response: 127\\.0\\.0\\.1:${bomb.port} sent a reply larger than ${REPLY_CAP_BYTES} bytes`,
      ),
    );
    expect(stallMs).toBeLessThan(1000 * currentSlowdown());
  });

  it('replies within the cap that are costly to parse are parsed off the main thread', async () => {
    // the parser this process's modules hold is never called: reply threads have their own copy (before, the
    // connector called it here, on the worker's main thread, once per call of the sync)
    const mainThreadParse = jest.spyOn(xmlTree, 'parseXml');
    try {
      const { stallMs, result: row } = await longestStall(() =>
        assignAndWait(heavy.port, (r) => r.sync_status === 'synced'),
      );
      expect(row).toMatchObject({ sync_status: 'synced', last_error: null });
      // a custom category, the profile, commit: every call was answered with the costly reply
      expect(heavy.state.requests).toBeGreaterThanOrEqual(3);
      expect(mainThreadParse).not.toHaveBeenCalled();
      expect(stallMs).toBeLessThan(1000 * currentSlowdown());
    } finally {
      mainThreadParse.mockRestore();
    }
  });
});
