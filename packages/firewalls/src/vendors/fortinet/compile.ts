// First-match rules → FortiOS objects (docs/firewalls.md "Compiling first-match rules"). FortiOS runs the static URL
// filter first, entry by entry, then the FortiGuard category filter. A static `block` stops; `allow` and
// `monitor` continue to the category check; `exempt` skips the rest of web filtering. So:
//  - domain and AI-category rules (operator-imported categories too, through the model's catalog) become
//    urlfilter entries in rule order: block → block, allow → exempt
//    (plain allow would fall through to the category check and could still be blocked), alert → monitor;
//  - general categories become ftgd-wf filters with FortiGuard ids (allow = no filter entry); the first rule
//    to claim an id wins; every remaining id takes the default action;
//  - a rule with min_asset_severity becomes an external threat feed of type FortiGuard Category (a remote
//    category with its own id, 192–221 on FortiOS) pulling the tenant's `fortigate-url` feed, and an ftgd-wf
//    filter on that id (docs/feeds.md).
import { fortiguardCategoryIds, fortiguardIds } from './fortiguard';
import { feedRules, feedUrlFor } from '../../feeds/feed-reference';
import { FEED_SEVERITIES, type FeedSeverity } from '../../feeds/feed-format';
import { patternCovers, rulePatterns, type FilterAction, type PolicyModel } from '../../policy/policy-model';

export interface FortiUrlEntry {
  id: number;
  url: string;
  type: 'simple' | 'wildcard';
  action: 'block' | 'exempt' | 'monitor';
  status: 'enable';
}

export interface FortiCategoryFilter {
  id: number;
  category: number;
  action: 'block' | 'monitor';
  log: 'enable';
}

/** A `system external-resource` of type category the device pulls from our feed. */
export interface FortiExternalResource {
  name: string;
  category: number;
  resource: string;
  severity: FeedSeverity;
  action: FilterAction;
}

/**
 * Remote category ids: FortiOS gives threat feeds the ids 192–221. One fixed id and one shared object name per
 * severity: a device belongs to one tenant, so every policy on it pulls the same list.
 */
export const FORTI_FEED_CATEGORY_BASE = 192;
export const fortiFeedResourceName = (severity: FeedSeverity) => `rk-feed-${severity}`;

export interface FortiCompiledPolicy {
  tableName: string;
  profileName: string;
  entries: FortiUrlEntry[];
  externalResources: FortiExternalResource[];
  filters: FortiCategoryFilter[];
  warnings: string[];
}

const URL_ACTION: Record<FilterAction, FortiUrlEntry['action']> = { allow: 'exempt', block: 'block', alert: 'monitor' };

export function fortiObjectName(policyId: string): string {
  return `rk-${policyId.replace(/[^A-Za-z0-9]/g, '').slice(-16)}`;
}

export function compileFortios(policy: PolicyModel): FortiCompiledPolicy {
  const name = fortiObjectName(policy.id);
  const entries: FortiUrlEntry[] = [];
  const claimedPatterns: string[] = [];
  const claimedIds = new Map<number, FilterAction>();
  const warnings: string[] = [];
  const rules = [...policy.rules].filter((r) => r.enabled).sort((a, b) => a.position - b.position);
  const alertRules: string[] = [];

  for (const rule of rules) {
    const label = rule.name ? `rule ${rule.position} (${rule.name})` : `rule ${rule.position}`;
    const patterns = rulePatterns(policy, rule);
    for (const pattern of new Set(patterns)) {
      if (claimedPatterns.some((claimed) => patternCovers(claimed, pattern))) continue; // never reached on the device
      claimedPatterns.push(pattern);
      entries.push({
        id: entries.length + 1,
        url: pattern,
        type: pattern.startsWith('*.') ? 'wildcard' : 'simple',
        action: URL_ACTION[rule.action],
        status: 'enable',
      });
    }
    for (const categoryId of rule.categories) {
      for (const fortiguardId of fortiguardIds(categoryId)) {
        if (!claimedIds.has(fortiguardId)) claimedIds.set(fortiguardId, rule.action);
      }
    }
    if (rule.action === 'alert' && patterns.length) alertRules.push(label);
    if (rule.min_risk_score !== null) {
      warnings.push(`${label}: min_risk_score is our own score; firewalls cannot evaluate it, so it is not pushed.`);
    }
  }
  for (const id of fortiguardCategoryIds) {
    if (!claimedIds.has(id)) claimedIds.set(id, policy.default_action);
  }
  if (alertRules.length && [...claimedIds.values()].some((action) => action === 'block')) {
    // FortiOS has no static action that logs and stops: monitor continues to the category filter.
    warnings.push(
      `${alertRules.join(', ')}: FortiOS 'monitor' continues to the FortiGuard category check, so a host these ` +
        `rules alert on is still blocked on FortiOS if its FortiGuard category is blocked (including by the default action).`,
    );
  }
  const externalResources = compileFeedRules(policy, entries.length > 0, warnings);
  // the feed's remote category first: a host it lists is rated with that category, not its FortiGuard one
  for (const resource of externalResources) claimedIds.set(resource.category, resource.action);
  const filters: FortiCategoryFilter[] = [];
  for (const [category, action] of [...claimedIds].sort((a, b) => a[0] - b[0])) {
    if (action === 'allow') continue; // FortiOS: an allowed category has no filter entry
    filters.push({ id: filters.length + 1, category, action: action === 'block' ? 'block' : 'monitor', log: 'enable' });
  }
  return { tableName: name, profileName: name, entries, externalResources, filters, warnings };
}

/** One external resource per severity a rule references; the first rule to reference a severity decides. */
function compileFeedRules(policy: PolicyModel, hasStaticEntries: boolean, warnings: string[]): FortiExternalResource[] {
  const resources: FortiExternalResource[] = [];
  for (const rule of feedRules(policy)) {
    if (resources.some((r) => r.severity === rule.min_asset_severity)) continue;
    resources.push({
      name: fortiFeedResourceName(rule.min_asset_severity),
      category: FORTI_FEED_CATEGORY_BASE + FEED_SEVERITIES.indexOf(rule.min_asset_severity),
      resource: feedUrlFor(policy, 'fortigate-url', rule.min_asset_severity),
      severity: rule.min_asset_severity,
      action: rule.action,
    });
  }
  if (resources.length && hasStaticEntries) {
    warnings.push(
      'FortiOS runs the static URL filter (domain and AI-category rules) before the category filter that holds ' +
        'the risk feed, so a host both in the feed and in a domain rule takes the domain rule, whatever the order.',
    );
  }
  return resources;
}
