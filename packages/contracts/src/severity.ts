import type { RISK_SEVERITIES } from './public/assets';

export type RiskSeverity = (typeof RISK_SEVERITIES)[number];

/**
 * The severity bands (docs/public-api.md "Severity bands") for a 0–100 risk score: ≥90 critical, ≥70 high, ≥40 medium, ≥10 low,
 * else informational. The one definition: the enrichment engine (intrinsic risk), the admin URL
 * risk score and @risk/common all use this (it lives here because every one of them, the pure engine
 * included, may depend on @risk/contracts).
 */
export function severityForScore(score: number): RiskSeverity {
  if (score >= 90) return 'critical';
  if (score >= 70) return 'high';
  if (score >= 40) return 'medium';
  if (score >= 10) return 'low';
  return 'informational';
}
