// Severity bands and their order, as the APIs define them (docs/public-api.md "Severity bands").
import { findingSeverityValues } from '@risk/sdk/src/generated/public-api';

export const SEVERITIES = findingSeverityValues;
export type Severity = (typeof SEVERITIES)[number];

/** The band of a 0–100 score: ≥ 90 critical, ≥ 70 high, ≥ 40 medium, ≥ 10 low, else informational. */
export function severityOf(score: number): Severity {
  if (score >= 90) return 'critical';
  if (score >= 70) return 'high';
  if (score >= 40) return 'medium';
  if (score >= 10) return 'low';
  return 'informational';
}
