// First-match rules → FortiOS objects (docs/firewalls.md "Compiling first-match rules"). FortiOS runs the static URL
// filter first, entry by entry, then the FortiGuard category filter. A static `block` stops; `allow` and
// `monitor` continue to the category check; `exempt` skips the rest of web filtering. So:
//  - domain and AI-category rules become urlfilter entries in rule order: block → block, allow → exempt
//    (plain allow would fall through to the category check and could still be blocked), alert → monitor;
//  - general categories become ftgd-wf filters with FortiGuard ids (allow = no filter entry); the first rule
//    to claim an id wins; every remaining id takes the default action.
import { fortiguardCategoryIds, fortiguardIds } from './fortiguard';
import {
  aiCategoryPatterns,
  isAiCategory,
  patternCovers,
  type FilterAction,
  type PolicyModel,
} from '../../policy/policy-model';

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

export interface FortiCompiledPolicy {
  tableName: string;
  profileName: string;
  entries: FortiUrlEntry[];
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
    const patterns = [...rule.domains, ...rule.categories.filter(isAiCategory).flatMap(aiCategoryPatterns)];
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
  const filters: FortiCategoryFilter[] = [];
  for (const [category, action] of [...claimedIds].sort((a, b) => a[0] - b[0])) {
    if (action === 'allow') continue; // FortiOS: an allowed category has no filter entry
    filters.push({ id: filters.length + 1, category, action: action === 'block' ? 'block' : 'monitor', log: 'enable' });
  }
  return { tableName: name, profileName: name, entries, filters, warnings };
}
