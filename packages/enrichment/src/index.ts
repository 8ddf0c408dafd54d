import { mergeAnalyses } from './observations';
// the severity bands (docs/enrichment.md "Scoring") are defined once, in @risk/contracts (pure, no I/O, like this package)
import { severityForScore } from '@risk/contracts';
import type { EnrichmentInput, FinalizeContext } from './types';
import { uniq } from './util';
import { ADVISORIES } from './versions';
import { analyze, type Analysis } from './analyze';
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
export { renderSpdxTagValue } from './aibom';
export { computeScore, SCORE_FORMULA } from './score';
export { severityForScore };
export { parseSpdxTagValue } from './aibom';
export { mergeAnalyses, primaryAnalysis } from './observations';
/** Every CVE id a rule finding can carry (the shipped advisories): the worker reads threats by these. */
export const ADVISORY_CVE_IDS: readonly string[] = uniq(ADVISORIES.map((a) => a.id)).sort();
export {
  REDACTED,
  SECRET_FORMATS,
  JWT_FORMAT,
  collectSecretValues,
  findSecrets,
  isSecretKeyName,
  redactDeep,
  redactText,
  redactUrl,
  secretKind,
} from './redact';

export { RULES, ruleById, type RuleDefinition, type RuleId } from './rules';
export { analyze, type Analysis } from './analyze';
export { finalize, type EnrichmentResult } from './finalize';
export { normalizeAssetName } from './identify';

export function enrich(input: EnrichmentInput, ctx: FinalizeContext): EnrichmentResult {
  return finalize(analyze(input), ctx);
}

/**
 * Analysis of every org's latest observation of one asset, combined into one (observations.ts:
 * union of findings and CVE ids, AI-BOM from the riskiest observation). `inputs` are ordered newest
 * first. The result goes to finalize() with the threats matching its cve_ids.
 */
export function analyzeObservations(inputs: readonly EnrichmentInput[]): Analysis {
  return mergeAnalyses(inputs.map(analyze));
}

/** The whole engine over several observations: analyzeObservations, then finalize. */
export function enrichObservations(inputs: readonly EnrichmentInput[], ctx: FinalizeContext): EnrichmentResult {
  return finalize(analyzeObservations(inputs), ctx);
}

export type { FinalizeContext } from './types';
export type { PublisherTrust } from './trust';
