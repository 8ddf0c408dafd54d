// What the URL-filter policy suites share (policies.test.ts, policy-updates.test.ts, policy-rules.test.ts,
// policy-reorder.test.ts, removal-failed.test.ts, removal-in-progress.test.ts): the route prefix, a policy with
// numbered rules, a firewall to assign it to, a policy assigned to a simulated PAN-OS firewall, and the sync outbox
// rows of an assignment.
import { unique, type AdminHarness, type Tenant } from './harness';

export const P = '/policies/v1/url-filter';
export type Rule = { id: string; position: number; name: string | null };

/** A policy of the tenant with `n` block rules r1…rn (expects 201). */
export async function policyWithRules(h: AdminHarness, tenant: Tenant, n = 3) {
  const rules = Array.from({ length: n }, (_, i) => ({
    name: `r${i + 1}`,
    action: 'block',
    domains: [`site${i + 1}.example`],
  }));
  const res = await h.createPolicy(tenant.auth, { name: unique('pol'), rules });
  expect(res.status).toBe(201);
  return res.body as { id: string; version: number; rules: Rule[] };
}

/** A FortiGate of the tenant; its id. */
export async function firewall(h: AdminHarness, tenant: Tenant): Promise<string> {
  const res = await h.createFirewall(tenant.auth, {
    name: unique('fw'),
    type: 'fortinet',
    host: '10.0.0.9',
    api_token: h.newApiToken(),
  });
  return res.body.id as string;
}

/**
 * A policy with one block rule, assigned to a fresh PAN-OS firewall of the tenant that is the simulator at
 * `sim.port` (answering `sim.apiKey`); nothing pushed yet.
 */
export async function assignedToPanos(h: AdminHarness, tenant: Tenant, sim: { port: number; apiKey: string }) {
  const fwName = unique('pa-edge');
  const fw = await h.createFirewall(tenant.auth, {
    name: fwName,
    type: 'palo_alto',
    host: '127.0.0.1',
    port: sim.port,
    api_token: sim.apiKey,
    verify_ssl: false,
  });
  const policy = await h.createPolicy(tenant.auth, {
    name: unique('pol'),
    rules: [{ action: 'block', domains: [`${unique('blocked')}.example`] }],
  });
  const policyId = policy.body.id as string;
  const fwId = fw.body.id as string;
  const assigned = await h.call('post', `${P}/${policyId}/assign`, {
    auth: tenant.auth,
    body: { firewall_ids: [fwId] },
  });
  return { policyId, fwId, fwName, assignmentId: assigned.body.assignments[0].id as string };
}

/** The firewall_sync outbox rows of an assignment, oldest first. */
export const outboxFor = (h: AdminHarness, assignmentId: string) =>
  h.ctx.db.prisma.outboxMessage.findMany({
    where: { kind: 'firewall_sync', payload: { path: ['assignment_id'], equals: assignmentId } },
    orderBy: { id: 'asc' },
  });
