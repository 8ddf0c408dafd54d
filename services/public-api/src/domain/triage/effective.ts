import { severityForScore, type RiskSeverity } from '@risk/contracts';
import { findingKeys, type OrgTriageRows, type OrgViewFinding } from '@risk/db';
import { computeScore, SEVERITY_WEIGHT, type ScoreResult } from '@risk/enrichment';
import { compileGlob, globMatches, globSubject, type CompiledGlob, type GlobSubject } from './glob';

/**
 * The org-specific view of an asset's findings and score (docs/triage.md "Effective score"), pure. The
 * score is the engine's own computeScore (packages/enrichment/src/score.ts) run over the findings the org
 * still counts, with its severity overrides applied: never a second implementation of the formula.
 */

export const THREAT_RULE_ID = 'threat_match';

/** A finding as the org's view needs it: the columns the triage store reads with it. */
export type ViewFinding = OrgViewFinding;

/** One of the org's triage rows of an asset (the triage store's row without its fingerprint). */
export type TriageRow = Omit<OrgTriageRows['triage'][number], 'fingerprint'>;

/** One of the org's suppression rules, as the triage store reads it. */
export type SuppressionRow = OrgTriageRows['suppressions'][number];

/** A suppression rule with its fingerprint glob compiled (rules with the same glob share one). */
export type CompiledSuppression = SuppressionRow & { glob: CompiledGlob | null };

export interface OrgRules {
  /** active suppression rules (expires_at null or in the future) */
  suppressions: CompiledSuppression[];
  /** rule id → the org's severity */
  overrides: Map<string, RiskSeverity>;
  now: Date;
}

export type ExclusionReason = 'suppressed' | 'false_positive' | 'not_affected' | 'accepted_risk';

export interface FindingView<F extends ViewFinding = ViewFinding> {
  finding: F;
  key: string;
  triage: TriageRow | null;
  suppressed_by: string[];
  effective_severity: RiskSeverity;
  effective_weight: number;
  /** why the finding leaves the effective score, or null when it counts */
  excluded: ExclusionReason | null;
}

export function compileRules(
  rows: SuppressionRow[],
  overrides: Array<{ rule_id: string; severity: string }>,
  now: Date,
): OrgRules {
  // each distinct glob compiled once per request; identical globs then share one evaluation per asset
  const globs = new Map<string, CompiledGlob>();
  const compiled = (pattern: string) => {
    let glob = globs.get(pattern);
    if (!glob) globs.set(pattern, (glob = compileGlob(pattern)));
    return glob;
  };
  return {
    suppressions: rows
      .filter((r) => !r.expires_at || r.expires_at > now)
      .map((r) => ({ ...r, glob: r.fingerprint_glob !== null ? compiled(r.fingerprint_glob) : null })),
    overrides: new Map(overrides.map((o) => [o.rule_id, o.severity as RiskSeverity])),
    now,
  };
}

/** The weight the engine gave the finding (kept in its score_breakdown); recomputed for rows without one. */
export function storedWeight(f: ViewFinding): number {
  const b = f.score_breakdown as { weight?: unknown } | null;
  if (b && typeof b.weight === 'number' && Number.isFinite(b.weight)) return b.weight;
  return Math.round((SEVERITY_WEIGHT[f.severity as RiskSeverity] ?? 0) * f.confidence * 100) / 100;
}

/**
 * The org's rules whose asset criteria (asset type, fingerprint glob) hold for the asset, in the rules' order.
 * They depend on the asset alone, so each glob is evaluated once per asset, never per finding: with the
 * linear matcher (glob.ts) an asset costs O(rules × (|glob| + |fingerprint|)) whatever its findings
 * (docs/security.md "Suppression globs in linear time").
 */
export function rulesForAsset(
  asset: { fingerprint: string; asset_type: string },
  rules: OrgRules,
): CompiledSuppression[] {
  let subject: GlobSubject | undefined;
  const matched = new Map<CompiledGlob, boolean>();
  return rules.suppressions.filter((s) => {
    if (s.asset_type !== null && s.asset_type !== asset.asset_type) return false;
    if (s.glob === null) return true;
    let hit = matched.get(s.glob);
    if (hit === undefined) {
      subject ??= globSubject(asset.fingerprint);
      matched.set(s.glob, (hit = globMatches(s.glob, subject)));
    }
    return hit;
  });
}

/** The ids of the asset's rules (rulesForAsset) whose finding criteria hold for the finding. */
function suppressedBy(f: ViewFinding, assetRules: CompiledSuppression[]): string[] {
  return assetRules
    .filter(
      (s) =>
        (s.rule_id === null || s.rule_id === f.rule_id) &&
        (s.cve_id === null || f.cve_ids.includes(s.cve_id)) &&
        (s.attack_technique === null || f.attack_techniques.includes(s.attack_technique)),
    )
    .map((s) => s.id);
}

function exclusion(triage: TriageRow | null, suppressed: string[], now: Date): ExclusionReason | null {
  if (triage?.state === 'false_positive' || triage?.state === 'not_affected') return triage.state;
  if (triage?.state === 'accepted_risk' && triage.expires_at && triage.expires_at > now) return 'accepted_risk';
  return suppressed.length ? 'suppressed' : null;
}

/**
 * One asset's findings as the org sees them. `findings` are all of the asset's current findings (their
 * keys depend on the whole set, docs/history.md); `triage` the org's rows for the asset by finding key.
 */
export function viewFindings<F extends ViewFinding>(
  asset: { fingerprint: string; asset_type: string },
  findings: F[],
  ctx: { triage: Map<string, TriageRow>; rules: OrgRules },
): Array<FindingView<F>> {
  const sorted = [...findings].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const keys = findingKeys(sorted);
  const assetRules = rulesForAsset(asset, ctx.rules);
  return sorted.map((finding, i) => {
    const key = keys[i]!;
    const triage = ctx.triage.get(key) ?? null;
    const suppressed = suppressedBy(finding, assetRules);
    const override = finding.rule_id === THREAT_RULE_ID ? undefined : ctx.rules.overrides.get(finding.rule_id);
    const weight = storedWeight(finding);
    return {
      finding,
      key,
      triage,
      suppressed_by: suppressed,
      effective_severity: override ?? (finding.severity as RiskSeverity),
      effective_weight:
        override && override !== finding.severity
          ? Math.round(SEVERITY_WEIGHT[override] * finding.confidence * 100) / 100
          : weight,
      excluded: exclusion(triage, suppressed, ctx.rules.now),
    };
  });
}

/** The engine's score over the views: every finding as stored (intrinsic) or the org's (effective). */
export function scoreViews<F extends ViewFinding>(
  views: Array<FindingView<F>>,
  mode: 'intrinsic' | 'effective',
): { result: ScoreResult; counted: Array<FindingView<F>>; inputs: ScoreInput[] } {
  const counted = mode === 'intrinsic' ? views : views.filter((v) => v.excluded === null);
  const inputs = counted.map((v) => ({
    rule_id: v.finding.rule_id,
    severity: (mode === 'intrinsic' ? v.finding.severity : v.effective_severity) as RiskSeverity,
    confidence: v.finding.confidence,
    weight: mode === 'intrinsic' ? storedWeight(v.finding) : v.effective_weight,
    threat_ids: v.finding.threat_ids,
  }));
  return { result: computeScore(inputs), counted, inputs };
}

export interface ScoreInput {
  rule_id: string;
  severity: RiskSeverity;
  confidence: number;
  weight: number;
  threat_ids: string[];
}

/** True when the org's view differs from the shared one for this asset (otherwise effective = intrinsic). */
export function adjusted(views: FindingView[]): boolean {
  return views.some((v) => v.excluded !== null || v.effective_severity !== v.finding.severity);
}

export interface EffectiveScore {
  effective_risk_score: number | null;
  effective_risk_severity: RiskSeverity | null;
}

/** The effective score of an asset: the intrinsic one when nothing of the org applies to it. */
export function effectiveScore(
  asset: { intrinsic_risk_score: number | null; intrinsic_risk_severity: string | null },
  views: FindingView[],
): EffectiveScore {
  if (asset.intrinsic_risk_score === null) return { effective_risk_score: null, effective_risk_severity: null };
  if (!adjusted(views))
    return {
      effective_risk_score: asset.intrinsic_risk_score,
      effective_risk_severity: asset.intrinsic_risk_severity as RiskSeverity | null,
    };
  const s = scoreViews(views, 'effective').result;
  return { effective_risk_score: s.score, effective_risk_severity: severityForScore(s.score) };
}
