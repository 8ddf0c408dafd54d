import type { Analysis } from './analyze';
import { computeScore } from './score';
import { mergeToolFingerprints } from './drift';
import type { FindingDraft } from './types';
import { stableStringify, uniq } from './util';

/**
 * How one asset's result is built from the latest observation of every org that observed it
 * (docs/security.md "Modes and shared observations"). No org can lower another org's risk:
 *
 * - findings are the union of every observation's rule findings, deduplicated by rule id + evidence,
 *   so the score (a probabilistic OR with severity floors, score.ts) can only rise when another
 *   observation is added; CVE ids are the union too (threat matching reads them);
 * - the AI-BOM, name, publisher, ecosystem and benchmark come from ONE observation, the "primary":
 *   the one whose own findings score highest, ties going to the newest. A riskier description of an
 *   asset is never hidden behind a benign one, and a BOM is never a blend of documents that disagree.
 *
 * `analyses` are ordered newest observation first (that order breaks ties). Pure: no I/O, no clock.
 */
export function mergeAnalyses(analyses: readonly Analysis[]): Analysis {
  const primary = primaryAnalysis(analyses);
  const seen = new Set<string>();
  const findings: FindingDraft[] = [];
  // the primary's findings first (their order is the single-observation order), then the others'
  for (const a of [primary, ...analyses.filter((x) => x !== primary)]) {
    for (const f of a.findings) {
      const key = `${f.rule_id}\n${stableStringify(f.evidence)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(f);
    }
  }
  return {
    ...primary,
    findings,
    cve_ids: uniq(analyses.flatMap((a) => a.cve_ids)).sort(),
    // the asset's tools: every observation's, the primary's definition first (docs/drift.md)
    tools: mergeToolFingerprints([primary.tools, ...analyses.filter((x) => x !== primary).map((a) => a.tools)]),
  };
}

/** The observation the AI-BOM is built from: highest own score, then the newest (first in the list). */
export function primaryAnalysis(analyses: readonly Analysis[]): Analysis {
  let best: Analysis | undefined;
  let bestScore = -1;
  for (const a of analyses) {
    const score = computeScore(a.findings).score;
    if (score > bestScore) {
      best = a;
      bestScore = score;
    }
  }
  if (!best) throw new Error('an asset with no observation cannot be enriched');
  return best;
}
