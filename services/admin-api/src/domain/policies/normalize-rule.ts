// The one validation of a rule's matching criteria, for new rules, changed rules and a new policy's rules.
import { ApiError } from '@risk/common';
import { allCategoryIds, normalizeDomainPattern, type FilterAction } from '@risk/firewalls';

export interface RuleInput {
  name?: string | null;
  action?: FilterAction;
  categories?: string[];
  domains?: string[];
  min_risk_score?: number | null;
  enabled?: boolean;
}

/** Validates categories and domain patterns; returns the normalized lists. `param` prefixes error params. */
export function normalizeRule(
  input: RuleInput,
  param: string,
  existing?: { categories: string[]; domains: string[]; min_risk_score: number | null },
) {
  const categories = input.categories ?? existing?.categories ?? [];
  categories.forEach((c, i) => {
    if (!allCategoryIds.has(c)) {
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
  if (!categories.length && !domains.length && minRisk === null) {
    throw new ApiError('missing_required_param', {
      param: `${param}categories`,
      message: 'A rule needs at least one of categories, domains or min_risk_score.',
    });
  }
  return { categories: [...new Set(categories)], domains: [...new Set(domains)], min_risk_score: minRisk };
}
