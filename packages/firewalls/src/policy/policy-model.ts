// Our URL-filter model (docs/firewalls.md "The policy model"): ordered rules, the first enabled match wins, else default_action.
// A rule matches when ANY of its non-empty criteria matches: one of its categories, one of its domain
// patterns (exact host, or `*.example.com` for any subdomain of example.com), or a URL risk score at least
// min_risk_score, or the host being in the tenant's risk feed at min_asset_severity or above (docs/feeds.md).
// This module is the reference evaluator the vendor compilers are tested against.
import { AI_PARENT_CATEGORY, classifyHostIn, shippedCatalog, type CategoryCatalog } from '../categories';
import { FEED_SEVERITIES, type FeedSeverity } from '../feeds/feed-format';

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
  /** the rule matches hosts in the tenant's risk feed cut at this severity (a PAN-OS EDL, a FortiGate feed) */
  min_asset_severity: FeedSeverity | null;
  enabled: boolean;
}

export interface PolicyModel {
  id: string;
  name: string;
  default_action: FilterAction;
  version: number;
  rules: PolicyRuleModel[];
  /**
   * where firewalls pull the tenant's feeds (FEED_BASE_URL): needed to compile a rule with min_asset_severity
   * into a reference to the feed object on the device
   */
  feed_base_url?: string;
  /**
   * the category data the AI categories of the rules expand with: the shipped lists merged with the operator's
   * imports (loadCategoryCatalog; docs/firewalls.md "Category data"). Absent: the shipped lists alone.
   */
  catalog?: CategoryCatalog;
}

export interface UrlFacts {
  host: string;
  categories: string[];
  risk_score: number;
  /** the most severe feed cut the host is in (null or absent: in none) */
  feed_severity?: FeedSeverity | null;
}

export interface PolicyDecision {
  action: FilterAction;
  rule_id: string | null;
  matched_on: 'category' | 'domain' | 'min_risk_score' | 'min_asset_severity' | 'default';
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

/**
 * The URL-list patterns standing for one of the AI categories of `catalog` (or the AI parent): each domain and
 * its subdomains. An operator-imported category expands like a shipped one.
 */
export function aiCategoryPatterns(categoryId: string, catalog: CategoryCatalog = shippedCatalog): string[] {
  const all = catalog.aiCategories;
  const selected = categoryId === AI_PARENT_CATEGORY ? all : all.filter((c) => c.id === categoryId);
  return selected.flatMap((c) => c.domains.flatMap((d) => [d, `*.${d}`]));
}

export function isAiCategory(categoryId: string, catalog: CategoryCatalog = shippedCatalog): boolean {
  return categoryId === AI_PARENT_CATEGORY || catalog.aiCategoryIds.has(categoryId);
}

/** The policy's AI-category rules expanded with the policy's catalog (the shipped lists when it has none). */
export function rulePatterns(policy: Pick<PolicyModel, 'catalog'>, rule: PolicyRuleModel): string[] {
  const catalog = policy.catalog ?? shippedCatalog;
  return [
    ...rule.domains,
    ...rule.categories.filter((c) => isAiCategory(c, catalog)).flatMap((c) => aiCategoryPatterns(c, catalog)),
  ];
}

/** Is a host whose most severe feed cut is `hostSeverity` in the feed cut at `cut`? (critical ⊂ high ⊂ …) */
export function feedIncludes(hostSeverity: FeedSeverity | null, cut: FeedSeverity): boolean {
  return hostSeverity !== null && FEED_SEVERITIES.indexOf(hostSeverity) <= FEED_SEVERITIES.indexOf(cut);
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
    if (rule.min_asset_severity && feedIncludes(facts.feed_severity ?? null, rule.min_asset_severity)) {
      return { action: rule.action, rule_id: rule.id, matched_on: 'min_asset_severity' };
    }
  }
  return { action: policy.default_action, rule_id: null, matched_on: 'default' };
}

/** Facts for a host from the category data (the shipped lists unless given the merged catalog); risk score 0. */
export function factsForHost(host: string, catalog: CategoryCatalog = shippedCatalog): UrlFacts {
  return { host, categories: classifyHostIn(catalog, host), risk_score: 0 };
}
