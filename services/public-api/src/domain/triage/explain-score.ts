import type { RiskSeverity, ScoreExplanation } from '@risk/contracts';
import { BAND_FLOOR, BAND_ROOM, CONFIDENT, effectiveBand, SCORE_FORMULA, SEVERITY_WEIGHT } from '@risk/enrichment';
import { severityForScore } from '@risk/contracts';
import type { AppDeps } from '../../deps';
import { assertEnriched, findAssetOr404 } from '../assets/get-asset';
import type { FindingRow } from '../assets/render';
import { scoreViews, THREAT_RULE_ID, type FindingView } from './effective';
import { loadOrgViews, type OrgScope } from './org-view';

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/** One computation (intrinsic or effective) with a factor per counted finding, worst first. */
function computation(views: Array<FindingView<FindingRow>>, mode: 'intrinsic' | 'effective') {
  const { result, counted, inputs } = scoreViews(views, mode);
  const factors = result.items.map((it) => {
    const v = counted[it.index]!;
    const input = inputs[it.index]!;
    const threat = input.rule_id === THREAT_RULE_ID;
    return {
      finding_id: v.finding.id,
      finding_key: v.key,
      rule_id: v.finding.rule_id,
      title: v.finding.title,
      kind: threat ? ('threat' as const) : ('rule' as const),
      severity: input.severity,
      confidence: input.confidence,
      band: threat ? ('informational' as const) : effectiveBand({ ...input, weight: it.weight }),
      weight: it.weight,
      exact_share: round4(it.exact),
      contribution: it.contribution,
      evidence: v.finding.evidence ?? null,
      threat_id: it.threat_id ?? null,
    };
  });
  return {
    score: result.score,
    severity: severityForScore(result.score),
    band: result.band,
    floor: result.floor,
    base: result.base,
    threat_penalty: result.threat_penalty,
    total: result.total,
    factors,
  };
}

/**
 * GET /v1/assets/{fp}/score (docs/triage.md "Explainable score"): the engine's computeScore
 * (packages/enrichment/src/score.ts) run over the stored findings, with each factor's share and evidence,
 * once as shared (intrinsic) and once as the key's org sees it (effective: exclusions and overrides).
 */
export async function explainScore(
  deps: Pick<AppDeps, 'prisma' | 'pool'>,
  input: { scope: OrgScope; fingerprint: string },
): Promise<ScoreExplanation> {
  const asset = await findAssetOr404(deps, input.scope.livemode, input.fingerprint);
  assertEnriched(asset);
  const findings = await deps.prisma.finding.findMany({
    where: { livemode: input.scope.livemode, fingerprint: asset.fingerprint },
  });
  const view = (await loadOrgViews(deps, { scope: input.scope, assets: [asset], findings })).get(asset.fingerprint)!;
  const views = [...view.findings.values()];
  const overrides = new Map<string, { rule_id: string; from: RiskSeverity; to: RiskSeverity }>();
  for (const v of views)
    if (v.effective_severity !== v.finding.severity)
      overrides.set(v.finding.rule_id, {
        rule_id: v.finding.rule_id,
        from: v.finding.severity as RiskSeverity,
        to: v.effective_severity,
      });
  return {
    object: 'score_explanation',
    fingerprint: asset.fingerprint,
    formula: SCORE_FORMULA,
    severity_weights: { ...SEVERITY_WEIGHT },
    band_floors: { ...BAND_FLOOR },
    band_rooms: { ...BAND_ROOM },
    confident_at: CONFIDENT,
    intrinsic: computation(views, 'intrinsic'),
    effective: {
      ...computation(views, 'effective'),
      excluded: views.flatMap((v) =>
        v.excluded
          ? [
              {
                finding_id: v.finding.id,
                rule_id: v.finding.rule_id,
                title: v.finding.title,
                reason: v.excluded,
                suppression_ids: v.suppressed_by,
              },
            ]
          : [],
      ),
      overrides_applied: [...overrides.values()],
    },
  };
}
