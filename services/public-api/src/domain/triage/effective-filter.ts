import type { Prisma } from '@risk/db';
import type { AppDeps } from '../../deps';
import type { OrgRules } from './effective';
import type { OrgScope } from './org-view';

/**
 * The SQL pre-filter of `GET /v1/assets?effective_risk_severity=` (docs/triage.md "Effective score"): a
 * superset of the assets whose effective severity can be `severity`. An asset nothing of the org applies
 * to has effective = intrinsic, so the candidates are the assets of that intrinsic severity plus those
 * the org's triage, suppression rules or severity overrides can touch. Returns `{}` (no pre-filter) when a
 * rule can touch every asset (a glob starting with a wildcard).
 */
export async function effectiveCandidates(
  deps: Pick<AppDeps, 'prisma'>,
  input: { scope: OrgScope; rules: OrgRules; severity: string },
): Promise<Prisma.AssetWhereInput> {
  const touched = await touchedAssets(deps, input);
  if (touched === 'all') return { intrinsic_risk_score: { not: null } };
  return {
    AND: [{ intrinsic_risk_score: { not: null } }, { OR: [{ intrinsic_risk_severity: input.severity }, ...touched] }],
  };
}

/**
 * The assets the org's triage, suppression rules or severity overrides can touch, as alternatives of a filter (a
 * superset; none when nothing of the org applies), or 'all' when a rule can touch every asset (a glob starting with
 * a wildcard). Every other asset's effective score is its intrinsic one (docs/triage.md "Effective score").
 */
export async function touchedAssets(
  deps: Pick<AppDeps, 'prisma'>,
  input: { scope: OrgScope; rules: OrgRules },
): Promise<Prisma.AssetWhereInput[] | 'all'> {
  const { scope, rules } = input;
  const triaged = await deps.prisma.findingTriage.findMany({
    where: {
      org_id: scope.orgId,
      livemode: scope.livemode,
      state: { in: ['false_positive', 'not_affected', 'accepted_risk'] },
    },
    distinct: ['fingerprint'],
    select: { fingerprint: true },
  });
  const touched: Prisma.AssetWhereInput[] = [];
  if (triaged.length) touched.push({ fingerprint: { in: triaged.map((t) => t.fingerprint) } });
  const ruleIds = new Set(rules.overrides.keys());
  for (const s of rules.suppressions) {
    // one criterion of the rule is enough for a superset: every criterion must match for the rule to apply
    if (s.rule_id !== null) ruleIds.add(s.rule_id);
    else if (s.cve_id !== null) touched.push({ findings: { some: { cve_ids: { has: s.cve_id } } } });
    else if (s.attack_technique !== null)
      touched.push({ findings: { some: { attack_techniques: { has: s.attack_technique } } } });
    else if (s.asset_type !== null) touched.push({ asset_type: s.asset_type });
    else if (s.glob !== null) {
      const prefix = s.glob.prefix;
      if (!prefix) return 'all';
      touched.push({ fingerprint: { startsWith: prefix } });
    }
  }
  if (ruleIds.size) touched.push({ findings: { some: { rule_id: { in: [...ruleIds] } } } });
  return touched;
}
