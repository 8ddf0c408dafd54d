// Our URL-filter model (docs/firewalls.md "The policy model"): ordered rules, the first enabled match wins, else default_action.
// A rule matches when ANY of its non-empty criteria matches: one of its categories, one of its domain
// patterns (exact host, or `*.example.com` for any subdomain of example.com), or a URL risk score at least
// min_risk_score. This module is the reference evaluator the vendor compilers are tested against.
import { AI_PARENT_CATEGORY, aiCategories, aiCategoryIds, classifyHost } from '../categories';

export type FilterAction = 'allow' | 'block' | 'alert';
export const FILTER_ACTIONS = ['allow', 'block', 'alert'] as const;

export interface PolicyRuleModel {
  id: string;
  position: number;
  name: string | null;
  action: FilterAction;
  categories: string[];
  domains: string[];
  min_risk_score: number | null;
  enabled: boolean;
}

export interface PolicyModel {
  id: string;
  name: string;
  default_action: FilterAction;
  version: number;
  rules: PolicyRuleModel[];
}

export interface UrlFacts {
  host: string;
  categories: string[];
  risk_score: number;
}

export interface PolicyDecision {
  action: FilterAction;
  rule_id: string | null;
  matched_on: 'category' | 'domain' | 'min_risk_score' | 'default';
}

/** PAN-OS and our own ranking: the strictest action wins when several apply. */
export const ACTION_STRICTNESS: Record<FilterAction, number> = { allow: 0, alert: 1, block: 2 };

/** Lower-case, strip the trailing dot; keeps a leading `*.`. Returns null for an invalid pattern. */
export function normalizeDomainPattern(input: string): string | null {
  let pattern = input.trim().toLowerCase().replace(/\.$/, '');
  const wildcard = pattern.startsWith('*.');
  if (wildcard) pattern = pattern.slice(2);
  if (!pattern || pattern.length > 253) return null;
  let ascii: string;
  try {
    ascii = new URL(`https://${pattern}`).hostname;
  } catch {
    return null;
  }
  if (ascii !== pattern && ascii !== pattern.normalize('NFC')) {
    // an IDN becomes its punycode form
    if (!/[^\x00-\x7f]/.test(pattern)) return null;
  }
  if (!/^[a-z0-9.-]+$/.test(ascii) || ascii.includes('..') || ascii.startsWith('.') || ascii.startsWith('-'))
    return null;
  if (wildcard && !ascii.includes('.')) return null;
  return wildcard ? `*.${ascii}` : ascii;
}

export function domainPatternMatches(pattern: string, host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (pattern.startsWith('*.')) return h.endsWith(pattern.slice(1));
  return h === pattern;
}

/** Does pattern `outer` match every host `inner` matches? */
export function patternCovers(outer: string, inner: string): boolean {
  if (outer === inner) return true;
  if (!outer.startsWith('*.')) return false;
  const suffix = outer.slice(1); // ".example.com"
  const innerHost = inner.startsWith('*.') ? inner.slice(2) : inner;
  return innerHost.endsWith(suffix);
}

/** Do two patterns share at least one host? */
export function patternsOverlap(a: string, b: string): boolean {
  return patternCovers(a, b) || patternCovers(b, a);
}

/** The URL-list patterns standing for one of our AI categories (or the AI parent): each domain and its subdomains. */
export function aiCategoryPatterns(categoryId: string): string[] {
  const selected = categoryId === AI_PARENT_CATEGORY ? aiCategories : aiCategories.filter((c) => c.id === categoryId);
  return selected.flatMap((c) => c.domains.flatMap((d) => [d, `*.${d}`]));
}

export function isAiCategory(categoryId: string): boolean {
  return categoryId === AI_PARENT_CATEGORY || aiCategoryIds.has(categoryId);
}

export function evaluatePolicy(policy: PolicyModel, facts: UrlFacts): PolicyDecision {
  const rules = [...policy.rules].sort((a, b) => a.position - b.position);
  for (const rule of rules) {
    if (!rule.enabled) continue;
    if (rule.domains.some((pattern) => domainPatternMatches(pattern, facts.host))) {
      return { action: rule.action, rule_id: rule.id, matched_on: 'domain' };
    }
    if (rule.categories.some((category) => facts.categories.includes(category))) {
      return { action: rule.action, rule_id: rule.id, matched_on: 'category' };
    }
    if (rule.min_risk_score !== null && facts.risk_score >= rule.min_risk_score) {
      return { action: rule.action, rule_id: rule.id, matched_on: 'min_risk_score' };
    }
  }
  return { action: policy.default_action, rule_id: null, matched_on: 'default' };
}

/** Facts for a host from our own data (categories of the AI list); risk score supplied by the caller. */
export function factsForHost(host: string, riskScore = 0): UrlFacts {
  return { host, categories: classifyHost(host), risk_score: riskScore };
}
