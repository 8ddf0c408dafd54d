// The rule registry and the helpers other modules use (docs/enrichment.md "Rule catalogue").
export { evaluateRules, isRule, RULES, ruleById, type RuleId } from './registry';
export { defineRule, SEVERITY_WEIGHT, toFinding, type RuleDefinition } from './define';
export { DEPENDENCY_ADVISORY_CONFIDENCE, SECONDARY_ADVISORY_CONFIDENCE } from './vulnerable-versions';
export { isVerifiedPublisher } from './signals/publisher';
