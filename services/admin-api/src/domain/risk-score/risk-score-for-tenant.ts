import { ApiError } from '@risk/common';
import type { DbDeps } from '../deps';
import { scoreUrl, UrlParseError } from './score-url';
import { ACTION_STRICTNESS, evaluatePolicy, policyModelOf } from '@risk/firewalls';

/** Score a URL and say what each of the tenant's assigned policies would do with it. */
export async function riskScoreForTenant(deps: DbDeps, input: { tenantId: string; url: string }) {
  const { url } = input;
  let score;
  try {
    score = scoreUrl(url);
  } catch (err) {
    if (err instanceof UrlParseError) throw new ApiError('parameter_invalid', { param: 'url', message: err.message });
    throw err;
  }
  const assigned = await deps.db.urlFilterPolicy.findMany({
    where: { tenant_id: input.tenantId, assignments: { some: {} } },
    include: { rules: { orderBy: { position: 'asc' } }, assignments: true },
  });
  const decisions = assigned.map((policy) => {
    const decision = evaluatePolicy(policyModelOf(policy), {
      host: score.host,
      categories: score.categories,
      risk_score: score.risk_score,
    });
    return { policy_id: policy.id, policy_name: policy.name, ...decision };
  });
  const action = decisions.reduce<(typeof decisions)[number]['action'] | null>(
    (best, d) => (best === null || ACTION_STRICTNESS[d.action] > ACTION_STRICTNESS[best] ? d.action : best),
    null,
  );
  return { object: 'url_risk_score' as const, ...score, action, policy_decisions: decisions };
}
