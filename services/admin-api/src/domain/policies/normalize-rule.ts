// The one validation of a rule's matching criteria, for new rules, changed rules and a new policy's rules.
// Categories are checked against the merged category data: the shipped ones and the operator's imported AI
// categories, which are platform-wide (docs/firewalls.md "Category data").
import { ApiError } from '@risk/common/errors';
import {
  allCategoryIds,
  loadOperatorCategoryIds,
  normalizeDomainPattern,
  type FeedSeverity,
  type FilterAction,
} from '@risk/firewalls';
import type { PrismaDeps } from '../deps';

export interface RuleInput {
  name?: string | null;
  action?: FilterAction;
  categories?: string[];
  domains?: string[];
  min_risk_score?: number | null;
  min_asset_severity?: FeedSeverity | null;
  enabled?: boolean;
}

export interface ExistingCriteria {
  categories: string[];
  domains: string[];
  min_risk_score: number | null;
  min_asset_severity: string | null;
}

/**
 * The category ids rules may name, for the rules about to be validated: the shipped ids, plus the operator's
 * (one bounded query, only when a rule names a category the shipped data does not know).
 */
export async function knownCategoryIds(
  deps: PrismaDeps,
  rules: ReadonlyArray<Pick<RuleInput, 'categories'>>,
): Promise<ReadonlySet<string>> {
  if (rules.every((r) => (r.categories ?? []).every((c) => allCategoryIds.has(c)))) return allCategoryIds;
  return new Set([...allCategoryIds, ...(await loadOperatorCategoryIds(deps.prisma))]);
}

/**
 * Validates categories (against `known`, from knownCategoryIds) and domain patterns; returns the normalized
 * lists. `param` prefixes error params; `existing` holds the criteria a partial update keeps.
 */
export function normalizeRule(
  input: RuleInput,
  context: { param: string; known: ReadonlySet<string>; existing?: ExistingCriteria },
) {
  const { param, known, existing } = context;
  const categories = input.categories ?? existing?.categories ?? [];
  categories.forEach((c, i) => {
    if (!known.has(c)) {
      throw new ApiError('parameter_invalid', {
        param: `${param}categories[${i}]`,
        message: `Unknown category '${c}'; see GET /policies/v1/categories and /policies/v1/categories/ai.`,
      });
    }
  });
  const domains = (input.domains ?? existing?.domains ?? []).map((d, i) => {
    const normalized = normalizeDomainPattern(d);
    if (!normalized) {
      throw new ApiError('parameter_invalid', {
        param: `${param}domains[${i}]`,
        message: `'${d}' is not a host name or a *.wildcard pattern.`,
      });
    }
    return normalized;
  });
  const minRisk = input.min_risk_score !== undefined ? input.min_risk_score : (existing?.min_risk_score ?? null);
  const minSeverity =
    input.min_asset_severity !== undefined ? input.min_asset_severity : (existing?.min_asset_severity ?? null);
  if (!categories.length && !domains.length && minRisk === null && minSeverity === null) {
    throw new ApiError('missing_required_param', {
      param: `${param}categories`,
      message: 'A rule needs at least one of categories, domains, min_risk_score or min_asset_severity.',
    });
  }
  return {
    categories: [...new Set(categories)],
    domains: [...new Set(domains)],
    min_risk_score: minRisk,
    min_asset_severity: minSeverity,
  };
}
