// Test fixtures for the vendor compilers: rules and a policy in our model, positions 1..n in the given order.
import type { FilterAction, PolicyModel, PolicyRuleModel } from './policy-model';

let n = 0;
export const rule = (action: FilterAction, over: Partial<PolicyRuleModel> = {}): PolicyRuleModel => ({
  id: `rul_${++n}`,
  position: 0,
  name: null,
  action,
  categories: [],
  domains: [],
  min_risk_score: null,
  min_asset_severity: null,
  enabled: true,
  ...over,
});

export const policy = (rules: PolicyRuleModel[], default_action: FilterAction = 'allow'): PolicyModel => ({
  id: 'pol_01abcdefghijklmnop',
  name: 'p',
  default_action,
  version: 7,
  rules: rules.map((r, i) => ({ ...r, position: i + 1 })),
});
