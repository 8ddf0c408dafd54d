// The writes behind every URL-filter policy change, shared by the admin API's use cases and the worker's
// tests (neither imports the other; docs/architecture.md "Package imports"): a new policy with its rules,
// an appended rule, rule positions, and what every change does in its transaction — bump the version and
// mark the policy's assignments pending with one firewall_sync outbox row each (the worker pushes;
// docs/firewalls.md "Assignment sync states"). Validation and the answer's shape stay with the caller.
import { ID_PREFIXES, newId } from '@risk/db';
import type { PrismaClient, Tx } from '@risk/db';
import type { FilterAction } from '../policy/policy-model';
import { bumpAndResyncPolicies } from '../sync/resync-policies';

/** A rule whose matching criteria were validated and normalized by the caller. */
export interface RuleWrite {
  name?: string | null;
  action: FilterAction;
  categories: string[];
  domains: string[];
  min_risk_score: number | null;
  min_asset_severity: string | null;
  enabled?: boolean;
}

export interface PolicyWrite {
  name: string;
  description?: string;
  default_action: FilterAction;
  rules: RuleWrite[];
}

const ruleRow = (r: RuleWrite, position: number) => ({
  id: newId(ID_PREFIXES.rule),
  position,
  name: r.name ?? null,
  action: r.action,
  categories: r.categories,
  domains: r.domains,
  min_risk_score: r.min_risk_score,
  min_asset_severity: r.min_asset_severity,
  enabled: r.enabled ?? true,
});

/** Inserts the policy and its rules at positions 1..n (version 1); returns its id. A taken name throws P2002. */
export async function insertPolicy(
  prisma: PrismaClient | Tx,
  input: { tenantId: string; policy: PolicyWrite },
): Promise<string> {
  const { policy } = input;
  const id = newId(ID_PREFIXES.policy);
  await prisma.urlFilterPolicy.create({
    data: {
      id,
      tenant_id: input.tenantId,
      name: policy.name,
      description: policy.description ?? null,
      default_action: policy.default_action,
      rules: { create: policy.rules.map((r, i) => ruleRow(r, i + 1)) },
    },
  });
  return id;
}

/** Appends the rule at the last position and re-syncs the policy, in one transaction; returns the rule row. */
export async function appendRule(prisma: PrismaClient, input: { policyId: string; rule: RuleWrite }) {
  const { policyId } = input;
  return prisma.$transaction(async (tx) => {
    const last = await tx.urlFilterRule.aggregate({ where: { policy_id: policyId }, _max: { position: true } });
    const { id, position, ...rest } = ruleRow(input.rule, (last._max.position ?? 0) + 1);
    const rule = await tx.urlFilterRule.create({ data: { id, policy_id: policyId, position, ...rest } });
    await bumpAndResync(tx, policyId);
    return rule;
  });
}

/** Bump the version and queue a re-sync of every live assignment, inside the caller's transaction. */
export async function bumpAndResync(tx: Tx, policyId: string): Promise<number> {
  const version = (await bumpAndResyncPolicies(tx, [policyId])).get(policyId);
  if (version === undefined) throw new Error(`policy ${policyId} vanished during its change`);
  return version;
}

