// The scan results the key's org reported itself for the files its asset names (docs/artifacts.md "Client-reported
// scan results"): shown in that org's views only — next to the named files (expand[]=artifacts), as findings marked
// `client_reported` (expand[]=findings) and in SARIF — never in another org's, never in the shared verdict of a hash.
import { ASSET_ARTIFACTS_MAX, type AssetArtifact, type Finding, type ReportedScan } from '@risk/contracts';
import { readOrgArtifactReports, type OrgArtifactReport } from '@risk/db';
import {
  clientReportedFindings,
  componentsWithClientReports,
  cycloneDxWithClientReports,
  reportCounts,
  spdxWithClientReports,
  type BomClientReport,
  type ClientReportedFinding,
  type StoredComponent,
} from '@risk/enrichment';
import type { AppDeps } from '../../deps';
import { renderFinding } from './render';
import type { OrgScope } from '../triage/org-view';

/** The org's own reports of each asset, with the platform's verdict of each hash: one statement for all of them. */
export function readOwnReports(
  deps: Pick<AppDeps, 'pool'>,
  scope: OrgScope,
  fingerprints: readonly string[],
): Promise<Map<string, OrgArtifactReport[]>> {
  return readOrgArtifactReports(deps.pool, {
    livemode: scope.livemode,
    orgId: scope.orgId,
    fingerprints,
    limit: ASSET_ARTIFACTS_MAX,
  });
}

/** The findings the org's reports of one asset add to its view (clientReportedFindings in @risk/enrichment). */
export function ownReportedFindings(reports: readonly OrgArtifactReport[]): ClientReportedFinding[] {
  return clientReportedFindings(reports.map((r) => ({ ...r, reported_at: r.reported_at.toISOString() })));
}

/**
 * A client-reported finding as an API finding. It is not a stored finding of the shared asset: its id and key name the
 * rule and the bytes, nobody can triage it (a new report or the platform's verdict replaces it), and it never counts
 * toward the score, which stays the platform's measurement (docs/artifacts.md "Client-reported scan results").
 */
export function renderReportedFinding(fingerprint: string, f: ClientReportedFinding, reportedAt: Date): Finding {
  const sha256 = String(f.evidence.sha256);
  const row = {
    ...f,
    id: `crf_${sha256}`,
    fingerprint,
    cve_ids: [],
    threat_ids: [],
    score_contribution: 0,
    score_breakdown: null,
    benchmark: null,
    created: reportedAt,
  };
  const view = {
    key: `client_reported:${f.rule_id}:${sha256}`,
    triage: null,
    suppressed_by: [],
    effective_severity: f.severity,
    excluded: null,
  };
  // outside the score altogether rather than excluded from it by a triage reason (ExclusionReason names none that fits)
  return { ...renderFinding(row, view), counts_toward_effective_score: false };
}

/** Every client-reported finding of one asset's reports, rendered. */
export function renderOwnReportedFindings(fingerprint: string, reports: readonly OrgArtifactReport[]): Finding[] {
  const at = new Map(reports.map((r) => [r.sha256, r.reported_at]));
  return ownReportedFindings(reports).map((f) =>
    renderReportedFinding(fingerprint, f, at.get(String(f.evidence.sha256)) ?? new Date(0)),
  );
}

/** The org's own report of a named file, as expand[]=artifacts shows it beside the platform's verdict. */
export function withOwnReport(a: AssetArtifact, reports: readonly OrgArtifactReport[] | undefined): AssetArtifact {
  const r = reports?.find((x) => x.sha256 === a.sha256);
  if (!r) return { ...a, reported: null };
  const reported = {
    verdict: r.verdict as ReportedScan['verdict'],
    analyser: r.analyser,
    analyser_version: r.analyser_version,
    ...(Array.isArray(r.findings) && r.findings.length > 0
      ? { findings: r.findings as NonNullable<ReportedScan['findings']> }
      : {}),
    counts: reportCounts(r),
  };
  return { ...a, reported };
}

/** The reports of one asset that count (reportCounts), by hash, as the AI-BOM formats state them. */
function bomReports(reports: readonly OrgArtifactReport[] | undefined): Map<string, BomClientReport> {
  return new Map(
    (reports ?? [])
      .filter(reportCounts)
      .map((r) => [
        r.sha256,
        { sha256: r.sha256, verdict: r.verdict, analyser: r.analyser, analyser_version: r.analyser_version },
      ]),
  );
}

/**
 * A stored AI-BOM row as the key's org reads it: the shared document, plus the org's counting client-reported verdicts
 * on the files they name in every format (components: `client_reported`; CycloneDX: `risk:client_reported:*`
 * properties; SPDX 2.3 and tag-value: an OTHER annotation by the client's tool; SPDX 3.0.1: an `other` annotation).
 * `content_hash` and `bom_version` stay those of the shared document; a row nothing applies to is returned as is.
 */
export function aiBomForOrg<R extends { spdx: unknown; components: unknown; cyclonedx?: unknown }>(
  row: R,
  reports: readonly OrgArtifactReport[] | undefined,
): R {
  const counting = bomReports(reports);
  if (counting.size === 0) return row;
  const components = Array.isArray(row.components) ? (row.components as StoredComponent[]) : [];
  return {
    ...row,
    spdx: spdxWithClientReports(row.spdx, counting),
    components: componentsWithClientReports(components, counting),
    ...(row.cyclonedx !== undefined ? { cyclonedx: cycloneDxWithClientReports(row.cyclonedx, counting) } : {}),
  };
}
