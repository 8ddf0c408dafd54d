// A rule with min_asset_severity compiles into a reference to the tenant's feed: the device pulls the list
// itself (docs/feeds.md "From a policy rule to the device"). These helpers give the compilers the feed URL.
import { PolicyTranslationError } from '../policy/translation-error';
import type { PolicyModel, PolicyRuleModel } from '../policy/policy-model';
import { feedPath, type FeedFormat, type FeedSeverity } from './feed-format';

/** The rules that reference the feed, in order, with their label for messages. */
export function feedRules(policy: PolicyModel): Array<PolicyRuleModel & { min_asset_severity: FeedSeverity }> {
  return policy.rules
    .filter((r): r is PolicyRuleModel & { min_asset_severity: FeedSeverity } => r.enabled && !!r.min_asset_severity)
    .sort((a, b) => a.position - b.position);
}

/** The absolute URL the device pulls; without FEED_BASE_URL a feed rule cannot be pushed. */
export function feedUrlFor(policy: PolicyModel, format: FeedFormat, severity: FeedSeverity): string {
  if (!policy.feed_base_url) {
    throw new PolicyTranslationError(
      'a rule references assets by severity, which firewalls read from the risk feed, but FEED_BASE_URL ' +
        '(where firewalls reach the admin API) is not configured',
    );
  }
  let end = policy.feed_base_url.length;
  while (end > 0 && policy.feed_base_url[end - 1] === '/') end--; // a loop: `/\/+$/` is quadratic on a run
  return `${policy.feed_base_url.slice(0, end)}${feedPath(format, severity)}`;
}
