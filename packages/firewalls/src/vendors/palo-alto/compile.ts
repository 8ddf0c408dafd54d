// First-match rules → PAN-OS objects (docs/firewalls.md "Compiling first-match rules"). A PAN-OS URL filtering profile
// is not ordered: custom URL categories are checked before predefined ones, and among the categories a URL
// matches the strictest action wins (block > alert > allow). To keep first-match meaning we
//  1. turn domain rules and AI-category rules (the AI domain list, with the operator's imported categories when
//     the model carries the merged catalog: docs/firewalls.md "Category data") into one custom URL category per rule,
//     dropping every pattern an earlier rule already covers (shadowed: the earlier rule wins in our model);
//  2. refuse a later pattern that overlaps an earlier, less strict one (PAN-OS would pick the later, stricter
//     action for the shared hosts; no URL-list construct expresses the exception);
//  3. map general categories to PAN-DB names, first rule to claim a name wins;
//  4. give every remaining predefined category the default action;
//  5. a rule with min_asset_severity becomes an External Dynamic List of type URL List pulling the tenant's
//     `panos-url` feed at that severity (docs/feeds.md), listed in the profile like a custom category.
import { AI_PARENT_CATEGORY, shippedCatalog } from '../../categories';
import { feedRules, feedUrlFor } from '../../feeds/feed-reference';
import type { FeedSeverity } from '../../feeds/feed-format';
import { PolicyTranslationError } from '../../policy/translation-error';
import { panDbNames, panGranularAiCategory, panPredefinedCategories } from './pan-db';
import {
  ACTION_STRICTNESS,
  patternCovers,
  patternsOverlap,
  rulePatterns,
  type FilterAction,
  type PolicyModel,
} from '../../policy/policy-model';

export interface PanCustomCategory {
  name: string;
  description: string;
  members: string[];
  action: FilterAction;
  rule_id: string;
}

/** An External Dynamic List (type URL List) the device pulls from our feed. */
export interface PanExternalList {
  name: string;
  url: string;
  severity: FeedSeverity;
  action: FilterAction;
  rule_id: string;
}

export interface PanCompiledPolicy {
  profileName: string;
  customCategories: PanCustomCategory[];
  externalLists: PanExternalList[];
  profile: Record<FilterAction, string[]>;
  warnings: string[];
}

export { PolicyTranslationError };

/** PAN-OS object names: at most 31 characters, letters, digits, '-', '_', '.'. */
export function panObjectPrefix(policyId: string): string {
  return `rk-${policyId.replace(/[^A-Za-z0-9]/g, '').slice(-10)}`;
}

export function compilePanos(policy: PolicyModel): PanCompiledPolicy {
  const prefix = panObjectPrefix(policy.id);
  const claimedPatterns: Array<{ pattern: string; action: FilterAction; rule: string }> = [];
  const claimedPredefined = new Map<string, FilterAction>();
  const customCategories: PanCustomCategory[] = [];
  const warnings: string[] = [];
  const rules = [...policy.rules].filter((r) => r.enabled).sort((a, b) => a.position - b.position);
  let firstGeneralCategoryRule: { position: number; action: FilterAction } | null = null;

  for (const rule of rules) {
    const label = rule.name ? `rule ${rule.position} (${rule.name})` : `rule ${rule.position}`;
    const candidates = rulePatterns(policy, rule);
    const members: string[] = [];
    for (const pattern of new Set(candidates)) {
      if (claimedPatterns.some((c) => patternCovers(c.pattern, pattern))) continue; // shadowed by an earlier rule
      const conflict = claimedPatterns.find(
        (c) => patternsOverlap(c.pattern, pattern) && ACTION_STRICTNESS[rule.action] > ACTION_STRICTNESS[c.action],
      );
      if (conflict) {
        throw new PolicyTranslationError(
          `${label} (${rule.action} ${pattern}) overlaps ${conflict.rule} (${conflict.action} ${conflict.pattern}) ` +
            `with a stricter action; PAN-OS applies the strictest matching category, so the earlier exception ` +
            `cannot be kept. Narrow the pattern or move the rule.`,
        );
      }
      members.push(pattern);
    }
    for (const pattern of members) claimedPatterns.push({ pattern, action: rule.action, rule: label });
    if (members.length) {
      if (firstGeneralCategoryRule && firstGeneralCategoryRule.action !== rule.action && rule.domains.length) {
        warnings.push(
          `${label}: PAN-OS checks custom URL categories before predefined ones, so these domains take ` +
            `${rule.action} on PAN-OS even if the device also files them under a category that rule ` +
            `${firstGeneralCategoryRule.position} handles.`,
        );
      }
      customCategories.push({
        name: `${prefix}-r${rule.position}`,
        description: `risk-intel policy ${policy.id} v${policy.version} ${label}`.slice(0, 255),
        members,
        action: rule.action,
        rule_id: rule.id,
      });
    }

    const panNames = rule.categories.flatMap((categoryId) => {
      if (categoryId === AI_PARENT_CATEGORY) {
        const all = (policy.catalog ?? shippedCatalog).aiCategories;
        return [AI_PARENT_CATEGORY, ...new Set(all.flatMap((c) => panGranularAiCategory(c.id) ?? []))];
      }
      return panDbNames(categoryId);
    });
    for (const name of panNames) {
      if (!claimedPredefined.has(name)) claimedPredefined.set(name, rule.action);
    }
    if (panNames.length && !firstGeneralCategoryRule)
      firstGeneralCategoryRule = { position: rule.position, action: rule.action };
    if (rule.min_risk_score !== null) {
      warnings.push(`${label}: min_risk_score is our own score; firewalls cannot evaluate it, so it is not pushed.`);
    }
  }

  for (const name of panPredefinedCategories) {
    if (!claimedPredefined.has(name)) claimedPredefined.set(name, policy.default_action);
  }
  const externalLists = compileFeedRules(policy, prefix, warnings);
  const profile: Record<FilterAction, string[]> = { allow: [], alert: [], block: [] };
  for (const category of customCategories) profile[category.action].push(category.name);
  for (const list of externalLists) profile[list.action].push(list.name);
  for (const [name, action] of claimedPredefined) profile[action].push(name);
  return { profileName: prefix, customCategories, externalLists, profile, warnings };
}

/**
 * One EDL per severity a rule references (the first rule to reference a severity decides its action). PAN-OS
 * checks EDLs with the custom categories and applies the strictest match, and the list's content changes
 * without a push, so overlaps with domain rules cannot be checked here: a warning says so.
 */
function compileFeedRules(policy: PolicyModel, prefix: string, warnings: string[]): PanExternalList[] {
  const lists: PanExternalList[] = [];
  for (const rule of feedRules(policy)) {
    const label = rule.name ? `rule ${rule.position} (${rule.name})` : `rule ${rule.position}`;
    if (lists.some((l) => l.severity === rule.min_asset_severity)) continue; // an earlier rule took these hosts
    lists.push({
      name: `${prefix}-edl-${rule.min_asset_severity}`,
      url: feedUrlFor(policy, 'panos-url', rule.min_asset_severity),
      severity: rule.min_asset_severity,
      action: rule.action,
      rule_id: rule.id,
    });
    if (policy.rules.some((r) => r.enabled && r.domains.length && r.action !== rule.action)) {
      warnings.push(
        `${label}: PAN-OS applies the strictest of the custom categories and External Dynamic Lists a URL ` +
          `matches, so a host both in the ${rule.min_asset_severity} risk feed and in another rule's domains ` +
          `takes the stricter action, whatever the rule order.`,
      );
    }
  }
  return lists;
}
