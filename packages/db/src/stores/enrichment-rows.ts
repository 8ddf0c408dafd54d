// What the enrichment store reads and writes, as rows (docs/data-access.md "Stores"): the shapes of the engine's
// results that the store needs, declared here so @risk/db depends on no engine. @risk/enrichment's EnrichmentResult,
// ToolFingerprint and ToolBaseline are assignable to them; the worker passes its results as they are.
import type { RiskSeverity } from '@risk/contracts';

/** One finding of a result, as ew_write stores it. */
export interface StoredFinding {
  rule_id: string;
  title: string;
  description: string;
  severity: RiskSeverity;
  category: string;
  confidence: number;
  evidence: unknown;
  capabilities: readonly string[];
  attack_techniques: readonly string[];
  cve_ids: readonly string[];
  threat_ids: readonly string[];
  remediation: string | null;
  weight: number;
  score_contribution: number;
  benchmark?: unknown;
}

/** One tool definition of the asset's current tool set (docs/drift.md), as asset_tool_baselines stores it. */
export interface StoredTool {
  name: string;
  hash: string;
  description_hash: string;
  schema_hash: string;
  description: string;
  input_schema: unknown;
  capabilities: readonly string[];
}

/** An asset's tool baseline as the job read returns it (the engine's ToolBaseline). */
export interface StoredToolBaseline {
  tools: Array<StoredTool & { original: boolean; seq: number }>;
}

/** An enrichment result, as the writer stores it. */
export interface StoredEnrichmentResult {
  findings: readonly StoredFinding[];
  intrinsic_risk_score: number;
  intrinsic_risk_severity: RiskSeverity;
  score_breakdown: unknown;
  publisher_trust: unknown;
  benchmark_summary: unknown;
  aibom: {
    content_hash: string;
    spdx_version: string;
    spdx: unknown;
    components: Array<Record<string, unknown>>;
    lineage: unknown;
    cyclonedx: unknown;
  };
  normalized_name: string | null;
  publisher: string | null;
  ecosystem: string | null;
  tools: readonly StoredTool[];
}

/** An event row the enrichment write inserts (ew_write's events; the caller decides which and renders them). */
export interface EnrichmentEventRow {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** What the lock statement read of the asset before this write, with the score and severity the job read. */
export interface PreviousEnrichment {
  score: number | null;
  severity: string | null;
  bom_version: number | null;
  /** the findings this write replaces (rows) */
  findings: Array<{
    id: string;
    rule_id: string;
    title: string;
    severity: string;
    cve_ids: string[];
    threat_ids: string[];
  }> | null;
  /** the previous AI-BOM's components and lineage, read only when the new content differs */
  components: Array<Record<string, unknown>> | null;
  lineage: unknown;
  /** the current tool set before this write (name → definition hash) */
  tools: Record<string, string> | null;
  has_tool_baseline: boolean;
}

/** What a write's events are decided from: the job's asset, the result, the AI-BOM it stores and the state before. */
export interface EnrichmentEventsInput<R extends StoredEnrichmentResult = StoredEnrichmentResult> {
  fingerprint: string;
  asset_type: string;
  status: string;
  result: R;
  bomId: string;
  bomVersion: number;
  newBom: boolean;
  /** the ids of the finding rows this write inserts, in result order */
  findingIds: string[];
  previous: PreviousEnrichment;
  now: Date;
}
