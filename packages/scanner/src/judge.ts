// Offline judgement (docs/scanner.md "Offline"): the engine runs in-process on each asset's inputs exactly as the
// worker runs it (analyse every observation, merge, finalise), with no threats and the engine's curated advisories.
import {
  analyzeObservations,
  finalize,
  type EnrichmentResult,
  type ScoredFinding,
  type Severity,
} from '@risk/enrichment';
import type { ScannedAsset } from './assets';

export interface JudgedAsset extends ScannedAsset {
  score: number;
  severity: Severity;
  findings: ScoredFinding[];
  ecosystem: string | null;
  aibom: EnrichmentResult['aibom'];
  /** findings accepted by the ignore file, with the reason given there */
  ignored: Array<{ rule_id: string | null; reason: string }>;
}

export const SEVERITY_ORDER: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'informational'];
export const severityRank = (s: Severity): number => SEVERITY_ORDER.length - SEVERITY_ORDER.indexOf(s);

export function judge(asset: ScannedAsset, now: string): JudgedAsset {
  const analysis = analyzeObservations(asset.inputs);
  const r = finalize(analysis, {
    threats: [],
    publisher: { org_count: 1, signal_count: 1, first_seen: now },
    now,
  });
  return {
    ...asset,
    score: r.intrinsic_risk_score,
    severity: r.intrinsic_risk_severity,
    findings: r.findings,
    ecosystem: r.ecosystem,
    aibom: r.aibom,
    ignored: [],
  };
}
