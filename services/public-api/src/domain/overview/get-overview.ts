import { OVERVIEW_DEFAULT_DAYS, RISK_SEVERITIES, type Overview, type RiskSeverity } from '@risk/contracts';
import { OVERVIEW_BUCKETS, overviewCounts, overviewRiskChanges, overviewThreats, overviewTop } from '@risk/db';
import { readDbOf, type ReadDeps } from '../../deps';
import { loadOrgRules, type OrgScope } from '../triage/org-view';
import { effectiveDelta } from './effective-adjust';

/** How many rules, techniques and threats the overview lists. */
export const OVERVIEW_TOP = 10;
export const OVERVIEW_THREATS = 5;

/**
 * GET /v1/overview (docs/public-api.md "Overview"): the org's assets of the key's mode in aggregate. Four SQL
 * aggregates over `asset_orgs` (overview-store.ts) give the shared figures; the org's triage is applied as deltas
 * computed on the assets it can touch only (effective-adjust.ts).
 */
export async function getOverview(
  appDeps: ReadDeps,
  input: { scope: OrgScope; days?: number; now?: Date },
): Promise<Overview> {
  const deps = readDbOf(appDeps); // aggregates tolerate replication lag (docs/scaling.md "Read replicas")
  const { scope } = input;
  const now = input.now ?? new Date();
  const days = input.days ?? OVERVIEW_DEFAULT_DAYS;
  const [counts, top, changes, threats, rules] = await Promise.all([
    overviewCounts(deps.pool, scope),
    overviewTop(deps.pool, scope),
    overviewRiskChanges(deps.pool, { ...scope, days, now }),
    overviewThreats(deps.pool, { ...scope, limit: OVERVIEW_THREATS }),
    loadOrgRules(deps, scope, now),
  ]);
  const delta = await effectiveDelta(deps, { scope, rules });
  const severities = (adjust?: Map<RiskSeverity, number>) =>
    Object.fromEntries(
      RISK_SEVERITIES.map((s) => [s, (counts.severity.get(s) ?? 0) + (adjust?.get(s) ?? 0)]),
    ) as Record<RiskSeverity, number>;
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  return {
    object: 'overview',
    livemode: scope.livemode,
    generated: Math.floor(now.getTime() / 1000),
    assets: {
      total: sum(counts.status),
      scored: sum(counts.severity),
      by_intrinsic_severity: severities(),
      by_effective_severity: severities(delta.severity),
    },
    score_histogram: Array.from({ length: OVERVIEW_BUCKETS }, (_, i) => {
      const intrinsic = counts.bucket.get(String(i)) ?? 0;
      return {
        from: i * 10,
        to: i === OVERVIEW_BUCKETS - 1 ? 100 : i * 10 + 9,
        intrinsic,
        effective: intrinsic + (delta.bucket.get(i) ?? 0),
      };
    }),
    risk_changes: { days, data: changes },
    top_rules: ranked(top.rule, delta.rule).map(([rule_id, assets]) => ({ rule_id, assets })),
    top_attack_techniques: ranked(top.technique, delta.technique).map(([id, assets]) => ({ id, assets })),
    recent_threats: threats.map((t) => ({
      id: t.id,
      title: t.title,
      severity: t.severity as Overview['recent_threats'][number]['severity'],
      category: t.category as Overview['recent_threats'][number]['category'],
      matched_assets: t.matched_assets,
      last_matched: Math.floor(t.last_matched.getTime() / 1000),
    })),
    enrichment_backlog: {
      pending: counts.status.get('pending') ?? 0,
      failed: counts.status.get('failed') ?? 0,
      stale: counts.status.get('stale') ?? 0,
    },
  };
}

/** The counts with the org's deltas applied, zeros dropped, most assets first (ties by key), the top 10. */
function ranked(counts: Map<string, number>, delta: Map<string, number>): Array<[string, number]> {
  return [...counts.entries()]
    .map(([k, n]): [string, number] => [k, n + (delta.get(k) ?? 0)])
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, OVERVIEW_TOP);
}
