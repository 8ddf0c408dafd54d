// The tenants, firewalls, policies and assignments the worker's firewall-sync tests start from, written by the
// same @risk/firewalls writes the admin API's use cases call (the worker never imports @risk/admin-api;
// docs/architecture.md "Package imports"). Each write queues its firewall_sync outbox rows as the admin API's do.
import { requestContext } from '@risk/common/observability';
import { ID_PREFIXES, newId, setRulePositions } from '@risk/db';
import {
  bumpAndResync,
  insertFirewall,
  insertPolicy,
  queueAssignments,
  queueRemoval,
  appendRule,
  type FilterAction,
  type FirewallType,
} from '@risk/firewalls';
import type { WorkerHarness } from './harness';

export interface FirewallFixtures {
  /** a tenant (its id) */
  tenant(name: string): Promise<string>;
  /** a firewall at 127.0.0.1:port holding `apiToken` (encrypted under SECRETS_KEY, as the admin API stores it) */
  firewall(input: { tenantId: string; type: FirewallType; port: number; apiToken: string }): Promise<string>;
  /** a policy named 'AI' with one rule per domain list; its id and rule ids */
  policy(input: {
    tenantId: string;
    rules: Array<{ action: FilterAction; domains: string[] }>;
    default_action?: FilterAction;
  }): Promise<{ id: string; version: number; ruleIds: string[] }>;
  /** assigns the policy at its current version (queues an apply each); the assignment ids, in firewall order */
  assign(input: { tenantId: string; policyId: string; firewallIds: string[]; requestId?: string }): Promise<string[]>;
  /** appends a block rule for the domain (the policy's version goes up and its assignments re-sync) */
  addRule(policyId: string, domain: string): Promise<void>;
  /** puts the rules in this order (a version bump and re-sync, as POST …/rules/reorder) */
  reorder(policyId: string, ruleIds: string[]): Promise<void>;
  /** marks the (policy, firewall) assignment removing and queues its removal; the assignment id */
  unassign(policyId: string, firewallId: string): Promise<string>;
}

export function firewallFixtures(h: WorkerHarness): FirewallFixtures {
  const prisma = h.ctx.db.prisma;
  return {
    async tenant(name) {
      const row = await prisma.tenant.create({
        data: {
          id: newId(ID_PREFIXES.tenant),
          name,
          admin_email: `ops@${name}.example`,
          org_id: newId(ID_PREFIXES.org),
        },
      });
      return row.id;
    },
    async firewall({ tenantId, type, port, apiToken }) {
      const row = await insertFirewall(prisma, {
        tenantId,
        firewall: { name: `${type}-edge`, type, host: '127.0.0.1', port, api_token: apiToken, verify_ssl: false },
        secretsKey: h.ctx.config.SECRETS_KEY ?? '',
      });
      return row.id;
    },
    async policy({ tenantId, rules, default_action = 'allow' }) {
      const id = await insertPolicy(prisma, {
        tenantId,
        policy: {
          name: 'AI',
          default_action,
          rules: rules.map((r) => ({ ...r, categories: [], min_risk_score: null, min_asset_severity: null })),
        },
      });
      const row = await prisma.urlFilterPolicy.findUniqueOrThrow({
        where: { id },
        include: { rules: { orderBy: { position: 'asc' } } },
      });
      return { id, version: row.version, ruleIds: row.rules.map((r) => r.id) };
    },
    async assign({ tenantId, policyId, firewallIds, requestId }) {
      const { version } = await prisma.urlFilterPolicy.findUniqueOrThrow({ where: { id: policyId } });
      const write = () => queueAssignments(prisma, { tenantId, policyId, version, firewallIds });
      // an admin request's id rides in the outbox row to the sync job's log lines (docs/observability.md)
      await (requestId ? requestContext.run({ request_id: requestId }, write) : write());
      const rows = await prisma.policyAssignment.findMany({ where: { policy_id: policyId } });
      return firewallIds.map((fw) => rows.find((r) => r.firewall_id === fw)!.id);
    },
    async addRule(policyId, domain) {
      await appendRule(prisma, {
        policyId,
        rule: { action: 'block', domains: [domain], categories: [], min_risk_score: null, min_asset_severity: null },
      });
    },
    async reorder(policyId, ruleIds) {
      await prisma.$transaction(async (tx) => {
        await setRulePositions(tx, ruleIds);
        await bumpAndResync(tx, policyId);
      });
    },
    async unassign(policyId, firewallId) {
      const row = await prisma.policyAssignment.findFirstOrThrow({
        where: { policy_id: policyId, firewall_id: firewallId },
      });
      return (await queueRemoval(prisma, row.id)).row.id;
    },
  };
}
