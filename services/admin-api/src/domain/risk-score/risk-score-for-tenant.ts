// GET /tools/v1/risk-score (docs/admin-api.md "URL risk score"): the URL's score with the merged category data
// (operator-imported AI categories included) and what each of the tenant's assigned policies would do with it.
// A rule with min_asset_severity is evaluated against the tenant's own risk feed, computed by the feed builder
// itself (the cached candidates + cutFeed: docs/feeds.md), and the decision names the feed entry that matched.
import { ApiError } from '@risk/common/errors';
import { ACTION_STRICTNESS, evaluatePolicy, loadCategoryCatalog, policyModelOf } from '@risk/firewalls';
import type { AdminDeps, PrismaDeps } from '../deps';
import { cachedFeedCandidates } from '../feeds/feed-entries';
import { feedMatch, type FeedMatch } from '../feeds/feed-match';
import { scoreUrl, UrlParseError, type UrlRiskScore } from './score-url';

function feedTarget(score: UrlRiskScore) {
  let path = '/';
  try {
    const url = new URL(score.normalized_url);
    path = `${url.pathname}${url.search}`;
  } catch {
    // normalized_url came from URL itself; a javascript: or data: URL has no host and matches no entry
  }
  return { host: score.host, hostPath: `${score.host}${path}` };
}

/** The decision's evidence for a feed match: which entry, why it is in the feed (asset, AI domain, block list). */
function feedEvidence(match: FeedMatch) {
  const { entry } = match;
  return {
    severity: match.severity,
    entry_type: entry.type,
    entry: entry.value,
    origin: entry.origin,
    asset_fingerprint: entry.origin === 'asset' ? entry.ref : null,
    ai_category: entry.origin === 'ai_domain' ? entry.ref : null,
    score: entry.score,
  };
}

/** Score a URL and say what each of the tenant's assigned policies would do with it. */
export async function riskScoreForTenant(
  deps: PrismaDeps & Pick<AdminDeps, 'feedCache'>,
  input: { tenantId: string; url: string },
) {
  const { url } = input;
  const catalog = await loadCategoryCatalog(deps.prisma);
  let score: UrlRiskScore;
  try {
    score = scoreUrl(url, catalog);
  } catch (err) {
    if (err instanceof UrlParseError) throw new ApiError('parameter_invalid', { param: 'url', message: err.message });
    throw err;
  }
  const assigned = await deps.prisma.urlFilterPolicy.findMany({
    where: { tenant_id: input.tenantId, assignments: { some: {} } },
    include: { rules: { orderBy: { position: 'asc' } } },
  });
  // the tenant's feed is computed only when a rule reads it (one computation for every policy and severity)
  const needsFeed = score.host !== '' && assigned.some((p) => p.rules.some((r) => r.enabled && r.min_asset_severity));
  const match = needsFeed ? feedMatch(await cachedFeedCandidates(deps, input.tenantId), feedTarget(score)) : null;
  const decisions = assigned.map((policy) => {
    const decision = evaluatePolicy(policyModelOf(policy, { catalog }), {
      host: score.host,
      categories: score.categories,
      risk_score: score.risk_score,
      feed_severity: match?.severity ?? null,
    });
    const feed = decision.matched_on === 'min_asset_severity' && match ? feedEvidence(match) : null;
    return { policy_id: policy.id, policy_name: policy.name, ...decision, feed_match: feed };
  });
  const action = decisions.reduce<(typeof decisions)[number]['action'] | null>(
    (best, d) => (best === null || ACTION_STRICTNESS[d.action] > ACTION_STRICTNESS[best] ? d.action : best),
    null,
  );
  return { object: 'url_risk_score' as const, ...score, action, policy_decisions: decisions };
}
