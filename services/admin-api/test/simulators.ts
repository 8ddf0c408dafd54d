// Both firewall simulators (packages/firewalls, docs/firewalls.md "Simulators") for a suite, answering one API key,
// and firewalls registered against them for a tenant: the set-up the assignment, feed, category and firewall
// suites share.
import {
  startFortinetSimulator,
  startPanosSimulator,
  type FortinetSimulatorState,
  type PanosSimulatorState,
  type SimulatorHandle,
} from '@risk/firewalls';
import { unique, type AdminHarness, type Tenant } from './harness';

export type Vendor = 'palo_alto' | 'fortinet';

export interface Simulators {
  /** the API key both devices accept (recorded as a harness secret) */
  key: string;
  pan: SimulatorHandle<PanosSimulatorState>;
  forti: SimulatorHandle<FortinetSimulatorState>;
  /** registers a firewall pointing at the vendor's simulator (expects 201) and returns its body */
  createFirewall(tenant: Tenant, vendor: Vendor, over?: Record<string, unknown>): Promise<{ id: string }>;
  close(): Promise<void>;
}

export async function startSimulators(h: AdminHarness, pan: { commitPolls?: number } = {}): Promise<Simulators> {
  const key = h.newApiToken();
  const sims = {
    pan: await startPanosSimulator({ apiKey: key, ...pan }),
    forti: await startFortinetSimulator({ apiKey: key }),
  };
  return {
    key,
    ...sims,
    async createFirewall(tenant, vendor, over = {}) {
      const res = await h.createFirewall(tenant.auth, {
        name: unique(vendor),
        type: vendor,
        host: '127.0.0.1',
        port: vendor === 'palo_alto' ? sims.pan.port : sims.forti.port,
        api_token: key,
        verify_ssl: false,
        ...over,
      });
      expect(res.status).toBe(201);
      return res.body as { id: string };
    },
    async close() {
      await sims.pan.close();
      await sims.forti.close();
    },
  };
}
