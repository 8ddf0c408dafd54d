// `--format json`: every asset with its fingerprint, files and lines, score, band and findings, plus the walk's counts.
import type { ScanResult } from '../scan';
import { TOOL } from '../tool';

export function json(result: ScanResult, created: string): string {
  return `${JSON.stringify(
    {
      tool: TOOL,
      created,
      stats: result.stats,
      skipped: result.skipped,
      assets: result.assets.map((a) => ({
        fingerprint: a.fingerprint,
        asset_type: a.asset_type,
        name: a.name,
        version: a.version,
        ecosystem: a.ecosystem,
        risk_score: a.score,
        risk_severity: a.severity,
        locations: a.locations,
        artifacts: a.artifact_results.map((r) => ({
          sha256: r.sha256,
          size: r.size,
          format: r.format,
          verdict: r.verdict,
        })),
        findings: a.findings.map((f) => ({
          rule_id: f.rule_id,
          title: f.title,
          severity: f.severity,
          category: f.category,
          confidence: f.confidence,
          description: f.description,
          remediation: f.remediation,
          evidence: f.evidence,
          score_contribution: f.score_contribution,
        })),
        ignored: a.ignored,
      })),
    },
    null,
    2,
  )}\n`;
}
