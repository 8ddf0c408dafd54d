// URL-filter policy use cases. Every change bumps `version` and, in the same transaction, marks the
// policy's assignments pending and writes one firewall_sync outbox row per assignment; the worker pushes.
import {
  ApiError,
  ID_PREFIXES,
  keysetOrder,
  keysetWhere,
  listEnvelope,
  newId,
  paginate,
  writeOutbox,
  type ListQuery,
} from '@risk/common';
import { Prisma, type PrismaClient, type Tx } from '@risk/db';
import { allCategoryIds, normalizeDomainPattern, type FilterAction } from '@risk/firewalls';
import { notFound } from '../errors';
import { checkAssignmentsBeforeDelete } from './removal-state';
import { serializeAssignment, serializePolicy, serializeRule, type PolicyWithChildren } from '../serializers';

export interface RuleInput {
  name?: string | null;
  action?: FilterAction;
  categories?: string[];
  domains?: string[];
  min_risk_score?: number | null;
  enabled?: boolean;
}

const withChildren = {
  rules: { orderBy: { position: 'asc' as const } },
  assignments: { orderBy: { created: 'asc' as const } },
};

/** Validates categories and domain patterns; returns the normalized lists. `param` prefixes error params. */
function normalizeRule(
  input: RuleInput,
  param: string,
  existing?: { categories: string[]; domains: string[]; min_risk_score: number | null },
) {
  const categories = input.categories ?? existing?.categories ?? [];
  categories.forEach((c, i) => {
    if (!allCategoryIds.has(c)) {
      throw new ApiError('parameter_invalid', {
        param: `${param}categories[${i}]`,
        message: `Unknown category '${c}'; see GET /policies/v1/categories and /policies/v1/categories/ai.`,
      });
    }
  });
  const domains = (input.domains ?? existing?.domains ?? []).map((d, i) => {
    const normalized = normalizeDomainPattern(d);
    if (!normalized) {
      throw new ApiError('parameter_invalid', {
        param: `${param}domains[${i}]`,
        message: `'${d}' is not a host name or a *.wildcard pattern.`,
      });
    }
    return normalized;
  });
  const minRisk = input.min_risk_score !== undefined ? input.min_risk_score : (existing?.min_risk_score ?? null);
  if (!categories.length && !domains.length && minRisk === null) {
    throw new ApiError('missing_required_param', {
      param: `${param}categories`,
      message: 'A rule needs at least one of categories, domains or min_risk_score.',
    });
  }
  return { categories: [...new Set(categories)], domains: [...new Set(domains)], min_risk_score: minRisk };
}

export async function findPolicy(db: PrismaClient | Tx, tenantId: string, id: string): Promise<PolicyWithChildren> {
  const policy = await db.urlFilterPolicy.findFirst({ where: { id, tenant_id: tenantId }, include: withChildren });
  if (!policy) throw notFound('url-filter policy', id, 'id');
  return policy;
}

function nameConflict(err: unknown, name?: string): never {
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
    throw new ApiError('resource_already_exists', {
      param: 'name',
      message: `A policy named '${name}' already exists.`,
    });
  }
  throw err;
}

export async function createPolicy(
  db: PrismaClient,
  tenantId: string,
  input: {
    name: string;
    description?: string;
    default_action: FilterAction;
    rules: Array<RuleInput & { action: FilterAction }>;
  },
) {
  const rules = input.rules.map((r, i) => ({ ...r, ...normalizeRule(r, `rules[${i}].`) }));
  const id = newId(ID_PREFIXES.policy);
  try {
    await db.urlFilterPolicy.create({
      data: {
        id,
        tenant_id: tenantId,
        name: input.name,
        description: input.description ?? null,
        default_action: input.default_action,
        rules: {
          create: rules.map((r, i) => ({
            id: newId(ID_PREFIXES.rule),
            position: i + 1,
            name: r.name ?? null,
            action: r.action,
            categories: r.categories,
            domains: r.domains,
            min_risk_score: r.min_risk_score,
            enabled: r.enabled ?? true,
          })),
        },
      },
    });
  } catch (err) {
    nameConflict(err, input.name);
  }
  return serializePolicy(await findPolicy(db, tenantId, id));
}

export async function listPolicies(db: PrismaClient, tenantId: string, page: ListQuery) {
  const result = await paginate(page, {
    loadCursor: (id) =>
      db.urlFilterPolicy.findFirst({ where: { id, tenant_id: tenantId }, select: { id: true, created: true } }),
    fetch: ({ before, after, order, take }) =>
      db.urlFilterPolicy.findMany({
        where: { tenant_id: tenantId, ...keysetWhere('id', { before, after }) },
        orderBy: keysetOrder('id', order),
        take,
        include: withChildren,
      }),
  });
  return listEnvelope(
    '/policies/v1/url-filter',
    { data: result.data.map(serializePolicy), has_more: result.has_more },
    (p) => p.id,
  );
}

/** Bump the version and queue a re-sync of every live assignment, inside the caller's transaction. */
async function bumpAndResync(tx: Tx, policyId: string): Promise<number> {
  const { version } = await tx.urlFilterPolicy.update({
    where: { id: policyId },
    data: { version: { increment: 1 } },
    select: { version: true },
  });
  const assignments = await tx.policyAssignment.findMany({
    where: { policy_id: policyId, sync_status: { notIn: ['removing', 'removal_failed'] } },
    select: { id: true },
  });
  if (assignments.length) {
    await tx.policyAssignment.updateMany({
      where: { id: { in: assignments.map((a) => a.id) } },
      data: { sync_status: 'pending', target_version: version },
    });
    await writeOutbox(
      tx,
      assignments.map((a) => ({
        kind: 'firewall_sync' as const,
        payload: { assignment_id: a.id, action: 'apply' as const, version },
      })),
    );
  }
  return version;
}

export async function updatePolicy(
  db: PrismaClient,
  tenantId: string,
  id: string,
  input: { name?: string; description?: string | null; default_action?: FilterAction },
) {
  await findPolicy(db, tenantId, id);
  try {
    await db.$transaction(async (tx) => {
      await tx.urlFilterPolicy.update({
        where: { id },
        data: {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.default_action !== undefined ? { default_action: input.default_action } : {}),
        },
      });
      await bumpAndResync(tx, id);
    });
  } catch (err) {
    nameConflict(err, input.name);
  }
  return serializePolicy(await findPolicy(db, tenantId, id));
}

export async function deletePolicy(db: PrismaClient, tenantId: string, id: string, force = false) {
  await findPolicy(db, tenantId, id);
  const leftOnDevice = await checkAssignmentsBeforeDelete(db, { policy_id: id }, force);
  await db.urlFilterPolicy.delete({ where: { id } });
  return { id, object: 'url_filter_policy', deleted: true as const, ...leftOnDevice };
}

export async function addRule(
  db: PrismaClient,
  tenantId: string,
  policyId: string,
  input: RuleInput & { action: FilterAction },
) {
  await findPolicy(db, tenantId, policyId);
  const normalized = normalizeRule(input, '');
  return db.$transaction(async (tx) => {
    const last = await tx.urlFilterRule.aggregate({ where: { policy_id: policyId }, _max: { position: true } });
    const rule = await tx.urlFilterRule.create({
      data: {
        id: newId(ID_PREFIXES.rule),
        policy_id: policyId,
        position: (last._max.position ?? 0) + 1,
        name: input.name ?? null,
        action: input.action,
        ...normalized,
        enabled: input.enabled ?? true,
      },
    });
    await bumpAndResync(tx, policyId);
    return serializeRule(rule);
  });
}

async function findRule(db: PrismaClient, tenantId: string, policyId: string, ruleId: string) {
  await findPolicy(db, tenantId, policyId);
  const rule = await db.urlFilterRule.findFirst({ where: { id: ruleId, policy_id: policyId } });
  if (!rule) throw notFound('rule', ruleId, 'ruleId');
  return rule;
}

export async function updateRule(
  db: PrismaClient,
  tenantId: string,
  policyId: string,
  ruleId: string,
  input: RuleInput,
) {
  const rule = await findRule(db, tenantId, policyId, ruleId);
  const normalized = normalizeRule(input, '', rule);
  return db.$transaction(async (tx) => {
    const updated = await tx.urlFilterRule.update({
      where: { id: ruleId },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.action !== undefined ? { action: input.action } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...normalized,
      },
    });
    await bumpAndResync(tx, policyId);
    return serializeRule(updated);
  });
}

/** Positions 1..n in the order given, in one statement (the ids are the policy's own, checked by the caller). */
async function setRulePositions(tx: Tx, orderedIds: string[]) {
  if (!orderedIds.length) return;
  const positions = orderedIds.map((_, i) => i + 1);
  await tx.$executeRaw`UPDATE url_filter_rules AS r SET position = v.position, updated = now()
    FROM unnest(${orderedIds}::text[], ${positions}::int[]) AS v(id, position) WHERE r.id = v.id`;
}

export async function deleteRule(db: PrismaClient, tenantId: string, policyId: string, ruleId: string) {
  await findRule(db, tenantId, policyId, ruleId);
  await db.$transaction(async (tx) => {
    await tx.urlFilterRule.delete({ where: { id: ruleId } });
    const rest = await tx.urlFilterRule.findMany({
      where: { policy_id: policyId },
      orderBy: { position: 'asc' },
      select: { id: true },
    });
    await setRulePositions(
      tx,
      rest.map((r) => r.id),
    );
    await bumpAndResync(tx, policyId);
  });
  return { id: ruleId, object: 'url_filter_rule', deleted: true as const };
}

export async function reorderRules(
  db: PrismaClient,
  tenantId: string,
  policyId: string,
  input: { rule_ids: string[]; expected_version?: number },
) {
  await db.$transaction(async (tx) => {
    // lock the policy row so a concurrent change cannot slip between the version check and the write
    await tx.$queryRaw`SELECT id FROM url_filter_policies WHERE id = ${policyId} FOR UPDATE`;
    const policy = await findPolicy(tx, tenantId, policyId);
    if (input.expected_version !== undefined && input.expected_version !== policy.version) {
      throw new ApiError('version_conflict', {
        param: 'expected_version',
        message: `The policy is at version ${policy.version}, not ${input.expected_version}; reload it and retry.`,
      });
    }
    const current = new Set(policy.rules.map((r) => r.id));
    const given = new Set(input.rule_ids);
    if (
      given.size !== input.rule_ids.length ||
      given.size !== current.size ||
      [...given].some((id) => !current.has(id))
    ) {
      throw new ApiError('invalid_rule_order', {
        param: 'rule_ids',
        message: 'rule_ids must list every rule of the policy exactly once (a permutation of its rule ids).',
      });
    }
    await setRulePositions(tx, input.rule_ids);
    await bumpAndResync(tx, policyId);
  });
  return serializePolicy(await findPolicy(db, tenantId, policyId));
}

export async function assignPolicy(db: PrismaClient, tenantId: string, policyId: string, firewallIds: string[]) {
  const policy = await findPolicy(db, tenantId, policyId);
  const ids = [...new Set(firewallIds)];
  const firewalls = await db.firewall.findMany({
    where: { id: { in: ids }, tenant_id: tenantId },
    select: { id: true },
  });
  const found = new Set(firewalls.map((f) => f.id));
  const missing = ids.findIndex((id) => !found.has(id));
  if (missing >= 0) throw notFound('firewall', ids[missing]!, `firewall_ids[${firewallIds.indexOf(ids[missing]!)}]`);
  await db.$transaction(async (tx) => {
    // new pairs are created, existing ones (failed, or being removed) go back to pending: three statements in all
    await tx.policyAssignment.createMany({
      data: ids.map((firewallId) => ({
        id: newId(ID_PREFIXES.assignment),
        tenant_id: tenantId,
        policy_id: policyId,
        firewall_id: firewallId,
        sync_status: 'pending',
        target_version: policy.version,
      })),
      skipDuplicates: true,
    });
    const where = { policy_id: policyId, firewall_id: { in: ids } };
    await tx.policyAssignment.updateMany({
      where,
      data: { sync_status: 'pending', target_version: policy.version, last_error: null },
    });
    const assignments = await tx.policyAssignment.findMany({ where, select: { id: true } });
    await writeOutbox(
      tx,
      assignments.map((a) => ({
        kind: 'firewall_sync' as const,
        payload: { assignment_id: a.id, action: 'apply' as const, version: policy.version },
      })),
    );
  });
  return serializePolicy(await findPolicy(db, tenantId, policyId));
}

export async function unassignPolicy(db: PrismaClient, tenantId: string, policyId: string, firewallId: string) {
  await findPolicy(db, tenantId, policyId);
  const assignment = await db.policyAssignment.findFirst({
    where: { policy_id: policyId, firewall_id: firewallId, tenant_id: tenantId },
  });
  if (!assignment) throw notFound('assignment of this policy to firewall', firewallId, 'fwId');
  const updated = await db.$transaction(async (tx) => {
    const row = await tx.policyAssignment.update({
      where: { id: assignment.id },
      data: { sync_status: 'removing', last_error: null },
    });
    await writeOutbox(tx, [
      {
        kind: 'firewall_sync',
        payload: { assignment_id: assignment.id, action: 'remove', version: row.target_version },
      },
    ]);
    return row;
  });
  return serializeAssignment(updated);
}
