import { mergeAnalyses } from './observations';
// the severity bands (docs/enrichment.md "Scoring") are defined once, in @risk/contracts (pure, no I/O, like this package)
import { severityForScore } from '@risk/contracts';
import type { EnrichmentInput, FinalizeContext } from './types';
import { uniq } from './util';
import { CURATED_ADVISORIES } from './advisories/curated';
import { packageKeysOf, type PackageKey } from './advisories/packages';
import { analyze, type Analysis, type AnalyzeOptions } from './analyze';
import { finalize, type EnrichmentResult } from './finalize';

export { ASSET_TYPES } from './types';
export type {
  AssetType,
  Severity,
  EnrichmentInput,
  FindingDraft,
  ScoredFinding,
  MatchedThreat,
  PublisherContext,
  ParsedManifest,
} from './types';
export {
  renderSpdxTagValue,
  buildSpdx3,
  spdx3InputFromStored,
  SPDX3_CONTEXT,
  type StoredComponent,
  componentsWithClientReports,
  cycloneDxWithClientReports,
  spdxWithClientReports,
  type BomClientReport,
} from './aibom';
// the score's parts, for the per-org effective score and its explanation (docs/triage.md)
export {
  computeScore,
  SCORE_FORMULA,
  BAND_FLOOR,
  BAND_ROOM,
  CONFIDENT,
  effectiveBand,
  type ScoreResult,
} from './score';
export { SEVERITY_WEIGHT } from './rules';
export { severityForScore };
export { mergeAnalyses, primaryAnalysis } from './observations';
export { namedArtifacts, MAX_NAMED_ARTIFACTS } from './parse/artifacts';
export type { ArtifactRef, ArtifactVerdictRecord, ArtifactVerdictFinding, ArtifactVerdictValue } from './types';
export {
  clientReportedFindings,
  reportCounts,
  CLIENT_REPORTED_SOURCE,
  type ClientReport,
  type ClientReportedFinding,
} from './client-reported';
/**
 * Every CVE id a rule finding can carry from the curated feed (ids and CVE aliases): the worker reads threats by
 * these plus the ids of the candidate advisories it read for the asset (docs/advisories.md "Enrichment").
 */
export const ADVISORY_CVE_IDS: readonly string[] = uniq(
  CURATED_ADVISORIES.flatMap((a) => [a.id, ...a.aliases]).filter((id) => id.startsWith('CVE-')),
).sort();
export * from './advisories';
export type { PackageKey } from './advisories/packages';

export { RULES, ruleById, type RuleDefinition, type RuleId } from './rules';
export { analyze, type Analysis, type AnalyzeOptions } from './analyze';
export {
  toolFingerprints,
  type BaselineTool,
  type ToolBaseline,
  type ToolCapability,
  type ToolFingerprint,
} from './drift';
export { finalize, type EnrichmentResult } from './finalize';
export { normalizeAssetName } from './identify';
export {
  assetArtifactUri,
  buildSarif,
  SARIF_FINGERPRINT_KEY,
  type SarifAsset,
  type SarifFinding,
} from './exchange/sarif';

export function enrich(input: EnrichmentInput, ctx: FinalizeContext): EnrichmentResult {
  return finalize(analyze(input, { tool_baseline: ctx.tool_baseline }), ctx);
}

/**
 * Analysis of every org's latest observation of one asset, combined into one (observations.ts:
 * union of findings and CVE ids, AI-BOM from the riskiest observation). `inputs` are ordered newest
 * first. The result goes to finalize() with the threats matching its cve_ids.
 */
export function analyzeObservations(inputs: readonly EnrichmentInput[], options: AnalyzeOptions = {}): Analysis {
  return mergeAnalyses(inputs.map((i) => analyze(i, options)));
}

/**
 * analyzeObservations, and the packages to read advisories for, taken from the same parse: each manifest is parsed
 * once. The worker's analysis task uses it (docs/advisories.md "Enrichment").
 */
export function analyzeObservationsWithPackages(
  inputs: readonly EnrichmentInput[],
  options: AnalyzeOptions = {},
): { analysis: Analysis; packages: PackageKey[] } {
  const analyses = inputs.map((i) => analyze(i, options));
  return { analysis: mergeAnalyses(analyses), packages: packageKeysOf(analyses) };
}

/** The whole engine over several observations: analyzeObservations, then finalize. */
export function enrichObservations(inputs: readonly EnrichmentInput[], ctx: FinalizeContext): EnrichmentResult {
  return finalize(analyzeObservations(inputs, { tool_baseline: ctx.tool_baseline }), ctx);
}

export type { FinalizeContext } from './types';
export type { PublisherTrust } from './trust';
export {
  ATLAS_VERSION,
  ATLAS_TECHNIQUES,
  ATLAS_TACTIC_LIST,
  atlasTechnique,
  type AtlasTechnique,
  type AtlasTactic,
} from './atlas';
export { buildStixBundle, observationFor, type ExportableThreat } from './exchange/stix-export';
export {
  planStixImport,
  fingerprintOf,
  urlFingerprint,
  StixBundleError,
  type StixImportPlan,
  type StixThreatDraft,
} from './exchange/stix-import';
export { parseStixPattern, StixPatternError, type StixComparison } from './exchange/stix-pattern';
export { stixId, threatStixId, uuidV5 } from './exchange/stix-ids';
