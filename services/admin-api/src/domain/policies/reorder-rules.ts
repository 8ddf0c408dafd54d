import { ApiError } from '@risk/common';
import type { DbDeps } from '../deps';
import { serializePolicy } from '../serializers';
import { findPolicy } from './find-policy';
import { bumpAndResync, setRulePositions } from './policy-writes';

/** A permutation of all the policy's rule ids, optionally checked against the version the caller read. */
export async function reorderRules(
  deps: DbDeps,
  request: { tenantId: string; policyId: string; order: { rule_ids: string[]; expected_version?: number } },
) {
  const { db } = deps;
  const { tenantId, policyId, order: input } = request;
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
