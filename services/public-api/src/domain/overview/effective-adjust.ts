import type { RiskSeverity } from '@risk/contracts';
import type { Prisma } from '@risk/db';
import type { AppDeps } from '../../deps';
import { ASSET_SELECT, type AssetRow } from '../assets/render';
import type { OrgRules } from '../triage/effective';
import { touchedAssets } from '../triage/effective-filter';
import { loadOrgViews, type AssetOrgView, type OrgScope } from '../triage/org-view';

/** Assets examined per round when applying the org's triage to the overview (as the effective-severity filter). */
export const OVERVIEW_SCAN_CHUNK = 200;

/**
 * How the org's view differs from the shared one (docs/public-api.md "Overview"), as deltas to add to the SQL
 * aggregates: only the assets the org's triage, suppressions or overrides can touch are read (`touchedAssets`), in
 * chunks of 200 whose views are computed in one batch each (org-view.ts) — never the org's every asset, unless a
 * suppression glob starting with `*` touches them all (docs/triage.md "Not done").
 */
export interface EffectiveDelta {
  severity: Map<RiskSeverity, number>;
  /** bucket index → delta */
  bucket: Map<number, number>;
  /** rule id → assets to remove (no open finding of the rule left) */
  rule: Map<string, number>;
  technique: Map<string, number>;
}

export const bucketOf = (score: number): number => Math.min(9, Math.floor(score / 10));

const add = <K>(m: Map<K, number>, k: K, d: number) => m.set(k, (m.get(k) ?? 0) + d);

export async function effectiveDelta(
  deps: Pick<AppDeps, 'prisma' | 'pool'>,
  input: { scope: OrgScope; rules: OrgRules },
): Promise<EffectiveDelta> {
  const delta: EffectiveDelta = { severity: new Map(), bucket: new Map(), rule: new Map(), technique: new Map() };
  const touched = await touchedAssets(deps, input);
  if (touched !== 'all' && touched.length === 0) return delta;
  const { orgId, livemode } = input.scope;
  const where: Prisma.AssetWhereInput = {
    livemode,
    intrinsic_risk_score: { not: null },
    orgs: { some: { org_id: orgId } },
    ...(touched === 'all' ? {} : { OR: touched }),
  };
  let after: string | undefined;
  for (;;) {
    const chunk: AssetRow[] = await deps.prisma.asset.findMany({
      where: after ? { AND: [where, { fingerprint: { gt: after } }] } : where,
      orderBy: { fingerprint: 'asc' },
      take: OVERVIEW_SCAN_CHUNK,
      select: ASSET_SELECT,
    });
    const views = await loadOrgViews(deps, { scope: input.scope, assets: chunk, rules: input.rules });
    for (const a of chunk) {
      const view = views.get(a.fingerprint);
      if (!view) continue;
      applyAsset(delta, a, view);
    }
    if (chunk.length < OVERVIEW_SCAN_CHUNK) return delta;
    after = chunk[chunk.length - 1]!.fingerprint;
  }
}

function applyAsset(delta: EffectiveDelta, a: AssetRow, view: AssetOrgView): void {
  const { effective_risk_score: score, effective_risk_severity: severity } = view.effective;
  if (a.intrinsic_risk_score !== null && score !== null && bucketOf(score) !== bucketOf(a.intrinsic_risk_score)) {
    add(delta.bucket, bucketOf(a.intrinsic_risk_score), -1);
    add(delta.bucket, bucketOf(score), 1);
  }
  if (a.intrinsic_risk_severity !== null && severity !== null && severity !== a.intrinsic_risk_severity) {
    add(delta.severity, a.intrinsic_risk_severity as RiskSeverity, -1);
    add(delta.severity, severity, 1);
  }
  const allRules = new Set<string>();
  const openRules = new Set<string>();
  const allTechniques = new Set<string>();
  const openTechniques = new Set<string>();
  for (const v of view.findings.values()) {
    allRules.add(v.finding.rule_id);
    for (const t of v.finding.attack_techniques) allTechniques.add(t);
    if (v.excluded !== null) continue;
    openRules.add(v.finding.rule_id);
    for (const t of v.finding.attack_techniques) openTechniques.add(t);
  }
  for (const r of allRules) if (!openRules.has(r)) add(delta.rule, r, -1);
  for (const t of allTechniques) if (!openTechniques.has(t)) add(delta.technique, t, -1);
}
