// A stored policy as the compilers and the evaluator read it.
import type { FilterAction, PolicyModel } from '../url-filter/policy-model';
import type { PolicyWithChildren } from '../serializers';

export function policyModelOf(policy: PolicyWithChildren): PolicyModel {
  return {
    id: policy.id,
    name: policy.name,
    default_action: policy.default_action as FilterAction,
    version: policy.version,
    rules: policy.rules.map((r) => ({
      id: r.id,
      position: r.position,
      name: r.name,
      action: r.action as FilterAction,
      categories: r.categories,
      domains: r.domains,
      min_risk_score: r.min_risk_score,
      enabled: r.enabled,
    })),
  };
}
