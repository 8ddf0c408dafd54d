// A stored policy with its rules → the policy model the compilers and the evaluator take.
import type { UrlFilterPolicy, UrlFilterRule } from '@risk/db';
import type { CategoryCatalog } from '../categories';
import type { FeedSeverity } from '../feeds/feed-format';
import type { FilterAction, PolicyModel } from './policy-model';

export interface PolicyModelContext {
  /** FEED_BASE_URL (docs/feeds.md) */
  feedBaseUrl?: string;
  /** the merged category data (loadCategoryCatalog): operator categories in rules expand with it */
  catalog?: CategoryCatalog;
}

export function policyModelOf(
  policy: UrlFilterPolicy & { rules: UrlFilterRule[] },
  context: PolicyModelContext = {},
): PolicyModel {
  const { feedBaseUrl, catalog } = context;
  return {
    ...(feedBaseUrl ? { feed_base_url: feedBaseUrl } : {}),
    ...(catalog ? { catalog } : {}),
    id: policy.id,
    name: policy.name,
    default_action: policy.default_action as FilterAction,
    version: policy.version,
    rules: policy.rules.map((r) => ({
      id: r.id,
      position: r.position,
      name: r.name,
      action: r.action as FilterAction,
      categories: r.categories,
      domains: r.domains,
      min_risk_score: r.min_risk_score,
      min_asset_severity: (r.min_asset_severity as FeedSeverity | null) ?? null,
      enabled: r.enabled,
    })),
  };
}
