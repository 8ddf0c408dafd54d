// The set-up the firewall suites share (firewalls.test.ts, firewall-updates.test.ts, firewall-device-calls.test.ts):
// an admin harness with a tenant, and both simulators answering one API key.
import { harnessWithTenant, unique, type AdminHarness, type Tenant } from './harness';
import { startSimulators, type Simulators } from './simulators';

export interface FirewallSuite {
  h: AdminHarness;
  tenant: Tenant;
  sims: Simulators;
  close(): Promise<void>;
}

export async function startFirewallSuite(label: string): Promise<FirewallSuite> {
  const { h, tenant } = await harnessWithTenant(label);
  const sims = await startSimulators(h, { commitPolls: 2 });
  return {
    h,
    tenant,
    sims,
    async close() {
      await sims.close();
      await h.close();
    },
  };
}

/** A valid POST /firewalls/v1 body (a fresh name and API token) with `over` applied. */
export const validFirewall = (h: AdminHarness, over: Record<string, unknown> = {}) => ({
  name: unique('fw'),
  type: 'palo_alto',
  host: '10.20.30.40',
  api_token: h.newApiToken(),
  ...over,
});

export const fw = (id: string, suffix = '') => `/firewalls/v1/${id}${suffix}`;
