// A firewall a tenant registered may be a host the tenant controls (docs/security.md "Firewall replies"): its replies
// are capped per call and parsed off the main thread under a CPU budget, and FIREWALL_ALLOWED_CIDRS keeps connectors
// inside the networks the operator allows (docs/security.md "Firewall targets").
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseAllowList } from '@risk/common/outbound';
import { currentSlowdown } from '@risk/time-budget';
import { createConnector } from '../registry';
import { attributeBombXml, startHostileFirewall, type HostileFirewallState } from '../simulators/hostile-firewall';
import { startPanosSimulator, type PanosSimulatorState } from '../vendors/palo-alto/simulator';
import type { SimulatorHandle } from '../simulators/tls';
import type { FirewallConnection } from './types';
import { closeReplyParsers, REPLY_PARSE_BUDGET_MS, setReplyParseBudgetForTests } from './reply-parser';
import { REPLY_CAP_BYTES } from './https-client';
import { parseFirewallNetworks } from './firewall-networks';
import * as xmlTree from '../lib/xml-tree';

const KEY = 'sim-key-0123456789';
const context = { timeoutMs: 5000, allowList: parseAllowList('127.0.0.1,localhost'), pollIntervalMs: 10 };
const panAt = (port: number): FirewallConnection => ({
  type: 'palo_alto',
  host: '127.0.0.1',
  port,
  verify_ssl: false,
  api_token: KEY,
});

/** The longest the main thread's event loop was blocked while `work` ran, in ms. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ stallMs: number; result: PromiseSettledResult<T> }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const [result] = await Promise.allSettled([work()]);
  histogram.disable();
  return { stallMs: histogram.max / 1e6, result: result! };
}

afterAll(async () => {
  await closeReplyParsers();
});

describe('a hostile PAN-OS reply', () => {
  let bomb: SimulatorHandle<HostileFirewallState>;
  let slow: SimulatorHandle<HostileFirewallState>;
  beforeAll(async () => {
    // what the audit sent: 8 MiB of attributes on <response>
    bomb = await startHostileFirewall(attributeBombXml(8 * 1024 * 1024));
    // just under the cap: read whole, and its parse costs the main thread hundreds of milliseconds
    slow = await startHostileFirewall(attributeBombXml(REPLY_CAP_BYTES - 1024));
  });
  afterAll(async () => {
    await bomb.close();
    await slow.close();
  });

  it('is refused once it passes the call cap, with a clear error, before it is parsed', async () => {
    const { stallMs, result } = await longestStall(() =>
      Promise.all([
        createConnector(panAt(bomb.port), context).test(),
        createConnector(panAt(bomb.port), context).test(),
      ]),
    );
    expect(result.status).toBe('rejected');
    const reason = (result as PromiseRejectedResult).reason as { reason: string; message: string };
    expect(reason.reason).toBe('unexpected_response');
    expect(reason.message).toMatch(new RegExp(`larger than ${REPLY_CAP_BYTES} bytes to POST /api/`));
    // the old code read all 8 MiB and parsed them here for about 8.5 s
    expect(stallMs).toBeLessThan(200 * currentSlowdown());
  });

  it('under the cap is parsed off the main thread', async () => {
    // the reply threads start with the first reply of a process (and the bundle they load is built then): a cost
    // paid once, not per reply, so it is paid before measuring
    await createConnector(panAt(slow.port), context).test();
    // the parser this process's modules hold is never called: the thread has its own copy (before, the connector
    // called it here, on the main thread)
    const mainThreadParse = jest.spyOn(xmlTree, 'parseXml');
    const { stallMs, result } = await longestStall(() =>
      Promise.allSettled([
        createConnector(panAt(slow.port), context).test(),
        createConnector(panAt(slow.port), context).test(),
      ]),
    );
    expect(result.status).toBe('fulfilled');
    // a well-formed reply with the system info: the test answers as for a real device
    for (const settled of (result as PromiseFulfilledResult<PromiseSettledResult<unknown>[]>).value)
      expect(settled).toMatchObject({ status: 'fulfilled', value: { model: 'PA-VM' } });
    expect(mainThreadParse).not.toHaveBeenCalled();
    mainThreadParse.mockRestore();
    expect(stallMs).toBeLessThan(200 * currentSlowdown());
  });

  it('that takes more CPU to parse than the budget fails the call with a clear error', async () => {
    // a 1 ms budget against a parse of tens of milliseconds: the pool's check (armed one budget after the start, then
    // at the earliest moment the rest could be spent) sees the budget spent long before the parse ends, however slowly
    // a loaded machine runs the thread (with 20 ms, a parse finished between two checks once at load 4)
    await setReplyParseBudgetForTests(1);
    try {
      await expect(createConnector(panAt(slow.port), context).test()).rejects.toMatchObject({
        reason: 'unexpected_response',
        message: expect.stringMatching(/PAN-OS sent a reply that took more than 1 ms of CPU to parse/),
      });
    } finally {
      await setReplyParseBudgetForTests(REPLY_PARSE_BUDGET_MS);
    }
  });
});

describe('a hostile FortiOS reply', () => {
  let bomb: SimulatorHandle<HostileFirewallState>;
  beforeAll(async () => {
    const filler = Array.from({ length: 400_000 }, (_, i) => `"k${i}":[[[{}]]]`).join(',');
    bomb = await startHostileFirewall(`{"status":"success","results":{${filler}}}`, 'application/json');
  });
  afterAll(async () => {
    await bomb.close();
  });

  it('is refused once it passes the call cap, with a clear error', async () => {
    const forti = createConnector({ ...panAt(bomb.port), type: 'fortinet' }, context);
    const { stallMs, result } = await longestStall(() => forti.test());
    expect(result).toMatchObject({
      status: 'rejected',
      reason: {
        reason: 'unexpected_response',
        message: expect.stringMatching(`larger than ${REPLY_CAP_BYTES} bytes to GET /api/v2/monitor/system/status`),
      },
    });
    expect(stallMs).toBeLessThan(200 * currentSlowdown());
  });
});

describe('FIREWALL_ALLOWED_CIDRS', () => {
  let sim: SimulatorHandle<PanosSimulatorState>;
  beforeAll(async () => {
    sim = await startPanosSimulator({ apiKey: KEY });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('refuses a firewall outside the listed networks before sending anything, without naming its address', async () => {
    const before = sim.state.requests.length;
    const outside = createConnector(
      { ...panAt(sim.port), host: 'localhost' },
      { ...context, networks: parseFirewallNetworks('10.20.0.0/16, fd00:1::/64') },
    );
    const err = await outside.test().then(
      () => null,
      (e: { reason: string; message: string }) => e,
    );
    expect(err).toMatchObject({ reason: 'outbound_blocked' });
    expect(err!.message).toMatch(/outside the networks this platform allows firewalls in \(FIREWALL_ALLOWED_CIDRS\)/);
    expect(err!.message).not.toMatch(/127\.0\.0\.1|::1/);
    expect(sim.state.requests.length).toBe(before);
  });

  it('connects to a firewall inside them', async () => {
    const inside = createConnector(panAt(sim.port), { ...context, networks: parseFirewallNetworks('127.0.0.0/8') });
    await expect(inside.test()).resolves.toMatchObject({ model: expect.any(String) });
  });

  it('is a list of CIDRs: anything else is refused when the setting is read, empty means no restriction', () => {
    expect(() => parseFirewallNetworks('10.0.0.0/8,intranet.example')).toThrow(/'intranet.example' is not a CIDR/);
    expect(() => parseFirewallNetworks('10.0.0.0/33')).toThrow(/not a CIDR/);
    expect(parseFirewallNetworks(' , ')).toBeNull();
    const networks = parseFirewallNetworks('10.20.0.0/16,fd00:1::/64')!;
    expect(networks.contains('10.20.3.4')).toBe(true);
    expect(networks.contains('::ffff:10.20.3.4')).toBe(true);
    expect(networks.contains('fd00:1::5')).toBe(true);
    expect(networks.contains('10.21.0.1')).toBe(false);
    expect(networks.contains('192.168.1.1')).toBe(false);
  });
});
