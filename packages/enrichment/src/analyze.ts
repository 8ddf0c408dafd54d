// Parse + base rules for one observation (docs/enrichment.md): what finalize() later scores.
import { emptyParsed, parseManifest } from './parse';
import { mergeArtifacts } from './parse/artifacts';
import { evaluateRules, ruleById, toFinding } from './rules';
import type { EnrichmentInput, FindingDraft, ParsedManifest } from './types';
import { capString, LIMITS, storable, storableString } from './limits';
import { str, uniq } from './util';
import { identify, normalizeAssetName } from './identify';
import { toolFingerprints, type ToolBaseline, type ToolFingerprint } from './drift';

export interface Analysis {
  input: EnrichmentInput;
  findings: FindingDraft[];
  cve_ids: string[];
  publisher: string | null;
  normalized_name: string | null;
  ecosystem: string | null;
  display_name: string | null;
  parsed: ParsedManifest;
  /** the observation's tools, fingerprinted (docs/drift.md); merged observations: the union by name */
  tools: ToolFingerprint[];
}

/** What an analysis may be given besides the signal: the asset's tool baseline (docs/drift.md). */
export interface AnalyzeOptions {
  tool_baseline?: ToolBaseline | null;
}

/**
 * A finding as it may be stored and served: NUL and lone surrogates replaced (Postgres text/jsonb cannot hold them),
 * strings capped at LIMITS.output_string, evidence arrays at LIMITS.evidence_items, copied user objects (a config's
 * auto_map) at LIMITS.output_depth levels.
 */
function storableFinding(f: FindingDraft): FindingDraft {
  return {
    ...f,
    title: capString(storableString(f.title)),
    description: capString(storableString(f.description)),
    evidence: storable(f.evidence, { maxItems: LIMITS.evidence_items, maxDepth: LIMITS.output_depth }) as Record<
      string,
      unknown
    >,
  };
}

/** Parse + base rules. Never throws. */
export function analyze(input: EnrichmentInput, options: AnalyzeOptions = {}): Analysis {
  let parsed: ParsedManifest;
  try {
    parsed = parseManifest(input);
  } catch (e) {
    parsed = emptyParsed();
    parsed.parse_errors.push(`parser: ${(e as Error).message}`);
  }
  mergeArtifacts(parsed, input.artifacts ?? null);
  let id: { name: string | null; publisher: string | null; ecosystem: string | null } = {
    name: str(input.name),
    publisher: null,
    ecosystem: null,
  };
  let findings: FindingDraft[];
  let tools: ToolFingerprint[] = [];
  try {
    tools = parsed.tools.length ? toolFingerprints(parsed) : [];
    id = identify(input, parsed);
    findings = evaluateRules(input, parsed, { publisher: id.publisher, tools, baseline: options.tool_baseline });
  } catch (e) {
    findings = [
      toFinding(ruleById('manifest_unparseable'), {
        description: `Analysis failed: ${String((e as Error).message).slice(0, 160)}`,
        evidence: { path: 'raw_manifest', error: String((e as Error).message).slice(0, 200) },
      }),
    ];
  }
  findings = findings.map(storableFinding);
  return {
    input,
    findings,
    cve_ids: uniq(findings.flatMap((f) => f.cve_ids)).sort(),
    publisher: id.publisher ? capString(id.publisher, LIMITS.item_string) : null,
    normalized_name: id.name ? normalizeAssetName(id.name) : null,
    ecosystem: id.ecosystem,
    display_name: id.name,
    parsed,
    tools,
  };
}
