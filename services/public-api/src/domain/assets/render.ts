import type { AiBom, Asset, AssetArtifact, Finding, Threat } from '@risk/contracts';
import { unixSeconds } from '../signals/render-signal';
import type { EffectiveScore, FindingView } from '../triage/effective';
import { renderTriage } from '../triage/render';

// the columns the API renders, and their row, are the assets store's (@risk/db stores/assets-store.ts)
export { ASSET_SELECT, type AssetRow } from '@risk/db';
import type { AssetRow } from '@risk/db';

export interface AssetExpansions {
  findings?: Finding[];
  aibom?: AiBom | null;
  /** the files the asset names by hash, with their verdicts (expand[]=artifacts) */
  artifacts?: AssetArtifact[];
  /** the key's org's view (docs/triage.md); absent where no org is the audience (shared events): null */
  effective?: EffectiveScore;
}

export function renderAsset(row: AssetRow, expanded: AssetExpansions = {}): Asset {
  return {
    object: 'asset',
    fingerprint: row.fingerprint,
    asset_type: row.asset_type as Asset['asset_type'],
    name: row.name,
    version: row.version,
    ecosystem: row.ecosystem,
    publisher: row.publisher,
    enrichment_status: row.enrichment_status as Asset['enrichment_status'],
    intrinsic_risk_score: row.intrinsic_risk_score,
    intrinsic_risk_severity: row.intrinsic_risk_severity as Asset['intrinsic_risk_severity'],
    effective_risk_score: expanded.effective?.effective_risk_score ?? null,
    effective_risk_severity: expanded.effective?.effective_risk_severity ?? null,
    publisher_trust: (row.publisher_trust ?? null) as Asset['publisher_trust'],
    benchmark_summary: (row.benchmark_summary ?? null) as Asset['benchmark_summary'],
    findings: expanded.findings ?? null,
    artifacts: expanded.artifacts ?? null,
    aibom: expanded.aibom !== undefined ? expanded.aibom : row.current_aibom_id,
    signal_count: row.signal_count,
    first_seen: unixSeconds(row.first_seen),
    last_seen: unixSeconds(row.last_seen),
    enriched_at: row.enriched_at ? unixSeconds(row.enriched_at) : null,
    created: unixSeconds(row.created),
    updated: unixSeconds(row.updated),
  };
}

export interface FindingRow {
  id: string;
  fingerprint: string;
  rule_id: string;
  title: string;
  description: string;
  severity: string;
  category: string;
  confidence: number;
  evidence: unknown;
  capabilities: string[];
  attack_techniques: string[];
  cve_ids: string[];
  threat_ids: string[];
  remediation: string | null;
  score_contribution: number;
  score_breakdown: unknown;
  benchmark: unknown;
  created: Date;
}

/** A finding with the key's org's view of it (`view`: effective.ts viewFindings). */
export function renderFinding(
  row: FindingRow,
  view: Pick<FindingView, 'key' | 'triage' | 'suppressed_by' | 'effective_severity' | 'excluded'>,
  threats?: Map<string, Threat>,
): Finding {
  return {
    id: row.id,
    object: 'finding',
    fingerprint: row.fingerprint,
    rule_id: row.rule_id,
    title: row.title,
    description: row.description,
    severity: row.severity as Finding['severity'],
    category: row.category,
    confidence: row.confidence,
    evidence: row.evidence,
    capabilities: row.capabilities,
    attack_techniques: row.attack_techniques,
    cve_ids: row.cve_ids,
    // expanded: ids whose threat no longer exists are dropped rather than rendered as dangling strings
    threats: threats ? row.threat_ids.flatMap((id) => (threats.has(id) ? [threats.get(id)!] : [])) : row.threat_ids,
    remediation: row.remediation,
    score_contribution: row.score_contribution,
    score_breakdown: row.score_breakdown ?? null,
    benchmark: row.benchmark ?? null,
    created: unixSeconds(row.created),
    finding_key: view.key,
    triage: view.triage ? renderTriage(view.triage) : null,
    suppressed_by: view.suppressed_by,
    effective_severity: view.effective_severity,
    counts_toward_effective_score: view.excluded === null,
  };
}

export interface AiBomRow {
  id: string;
  fingerprint: string;
  bom_version: number;
  content_hash: string;
  spdx_version: string;
  spdx: unknown;
  components: unknown;
  lineage: unknown;
  created: Date;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function renderAiBom(row: AiBomRow): AiBom {
  const spdx = (row.spdx ?? {}) as Record<string, unknown>;
  const creation = (spdx.creationInfo ?? {}) as Record<string, unknown>;
  return {
    id: row.id,
    object: 'aibom',
    fingerprint: row.fingerprint,
    bom_version: row.bom_version,
    spdx_metadata: {
      spdx_version: str(spdx.spdxVersion) ?? row.spdx_version,
      data_license: str(spdx.dataLicense),
      document_name: str(spdx.name),
      document_namespace: str(spdx.documentNamespace),
      created: str(creation.created),
      creators: Array.isArray(creation.creators)
        ? creation.creators.filter((c): c is string => typeof c === 'string')
        : [],
    },
    spdx,
    components: (Array.isArray(row.components) ? row.components : []) as AiBom['components'],
    lineage: (row.lineage ?? null) as AiBom['lineage'],
    content_hash: row.content_hash,
    created: unixSeconds(row.created),
  };
}
