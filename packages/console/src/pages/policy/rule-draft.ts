// A rule's form ↔ the admin API's bodies (docs/console-pages.md "URL-filter policies"): the add form builds a
// CreateUrlFilterRuleBody; the edit form starts from the rule and sends only the fields that changed (the route
// is a partial update), with the policy's version so a change made elsewhere meanwhile is a 409, not overwritten.
import type {
  AssetSeverity,
  CreateRuleBody,
  FilterAction,
  Policy,
  Rule,
  UpdatePolicyBody,
  UpdateRuleBody,
} from '../../api/types';
import { splitList } from '../../lib/text';

export interface RuleDraft {
  name: string;
  action: FilterAction;
  enabled: boolean;
  /** comma or space separated, as typed */
  domains: string;
  categories: string;
  /** '' = no minimum */
  minScore: string;
  /** '' = no asset-severity criterion */
  minSeverity: AssetSeverity | '';
}

export const EMPTY_RULE: RuleDraft = {
  name: '',
  action: 'block',
  enabled: true,
  domains: '',
  categories: '',
  minScore: '',
  minSeverity: '',
};

export function draftOf(rule: Rule): RuleDraft {
  return {
    name: rule.name ?? '',
    action: rule.action,
    enabled: rule.enabled,
    domains: rule.domains.join(', '),
    categories: rule.categories.join(', '),
    minScore: rule.min_risk_score === null ? '' : String(rule.min_risk_score),
    minSeverity: rule.min_asset_severity ?? '',
  };
}

/** the draft's values in the API's terms (an empty name or criterion is null) */
function valuesOf(d: RuleDraft) {
  return {
    name: d.name.trim() || null,
    action: d.action,
    enabled: d.enabled,
    domains: splitList(d.domains),
    categories: splitList(d.categories),
    min_risk_score: d.minScore.trim() === '' ? null : Number(d.minScore),
    min_asset_severity: d.minSeverity || null,
  };
}

export function createRuleBody(d: RuleDraft): CreateRuleBody {
  const v = valuesOf(d);
  return {
    action: v.action,
    enabled: v.enabled,
    domains: v.domains,
    categories: v.categories,
    ...(v.name ? { name: v.name } : {}),
    ...(v.min_risk_score !== null ? { min_risk_score: v.min_risk_score } : {}),
    ...(v.min_asset_severity ? { min_asset_severity: v.min_asset_severity } : {}),
  };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.join('\n') === b.join('\n');

/** The changed fields of `rule` (null when nothing changed) plus `expected_version`. */
export function updateRuleBody(input: { rule: Rule; draft: RuleDraft; version: number }): UpdateRuleBody | null {
  const { rule } = input;
  const v = valuesOf(input.draft);
  const body: UpdateRuleBody = {};
  if (v.name !== rule.name) body.name = v.name;
  if (v.action !== rule.action) body.action = v.action;
  if (v.enabled !== rule.enabled) body.enabled = v.enabled;
  if (!sameList(v.domains, rule.domains)) body.domains = v.domains;
  if (!sameList(v.categories, rule.categories)) body.categories = v.categories;
  if (v.min_risk_score !== rule.min_risk_score) body.min_risk_score = v.min_risk_score;
  if (v.min_asset_severity !== rule.min_asset_severity) body.min_asset_severity = v.min_asset_severity;
  return Object.keys(body).length === 0 ? null : { ...body, expected_version: input.version };
}

export interface PolicyDraft {
  name: string;
  description: string;
  defaultAction: FilterAction;
}

export const policyDraftOf = (p: Policy): PolicyDraft => ({
  name: p.name,
  description: p.description ?? '',
  defaultAction: p.default_action,
});

/** The policy's changed settings (null when nothing changed) plus `expected_version`; an emptied description is null. */
export function updatePolicyBody(p: Policy, d: PolicyDraft): UpdatePolicyBody | null {
  const body: UpdatePolicyBody = {};
  if (d.name.trim() !== p.name) body.name = d.name.trim();
  const description = d.description.trim() || null;
  if (description !== (p.description ?? null)) body.description = description;
  if (d.defaultAction !== p.default_action) body.default_action = d.defaultAction;
  return Object.keys(body).length === 0 ? null : { ...body, expected_version: p.version };
}
