// A stored policy with its rules → the policy model the compilers and the evaluator take.
import type { UrlFilterPolicy, UrlFilterRule } from '@risk/db';
import type { FilterAction, PolicyModel } from './policy-model';

export function policyModelOf(policy: UrlFilterPolicy & { rules: UrlFilterRule[] }): PolicyModel {
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
