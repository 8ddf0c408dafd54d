import { ID_PREFIXES, newId } from '@risk/common';
import type { FilterAction } from '@risk/firewalls';
import type { DbDeps } from '../deps';
import { serializePolicy } from '../serializers';
import { findPolicy } from './find-policy';
import { normalizeRule, type RuleInput } from './normalize-rule';
import { nameConflict } from './policy-writes';

export async function createPolicy(
  deps: DbDeps,
  request: {
    tenantId: string;
    policy: {
      name: string;
      description?: string;
      default_action: FilterAction;
      rules: Array<RuleInput & { action: FilterAction }>;
    };
  },
) {
  const { db } = deps;
  const { tenantId, policy: input } = request;
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
