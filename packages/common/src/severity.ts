export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'informational'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** DESIGN.md §3 bands: ≥90 critical, ≥70 high, ≥40 medium, ≥10 low, else informational. */
export function severityForScore(score: number): Severity {
  if (score >= 90) return 'critical';
  if (score >= 70) return 'high';
  if (score >= 40) return 'medium';
  if (score >= 10) return 'low';
  return 'informational';
}
