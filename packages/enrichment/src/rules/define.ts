// One rule = one definition: its catalogue entry (what docs/enrichment.md prints) and its evaluate function, so a
// rule cannot be documented without being run or run without being documented (docs/enrichment.md "Rule catalogue").
import { ATLAS_VERSION, atlasTechnique } from '../atlas';
import type { ToolBaseline, ToolFingerprint } from '../drift';
import type { EnrichmentInput, FindingDraft, ParsedManifest, Severity } from '../types';

/** Base weight per severity (docs/enrichment.md "Scoring"); a finding's weight = base × confidence. */
export const SEVERITY_WEIGHT: Readonly<Record<Severity, number>> = {
  critical: 60,
  high: 35,
  medium: 15,
  low: 5,
  informational: 0,
};

/** What a rule sees: the signal, its parsed manifest, and the findings of the rules evaluated before it. */
export interface RuleContext {
  readonly input: EnrichmentInput;
  readonly p: ParsedManifest;
  /** raw_manifest, or '' */
  readonly raw: string;
  readonly publisher: string | null;
  readonly findings: readonly FindingDraft[];
  /** this observation's tools, fingerprinted (src/drift.ts) */
  readonly tools: readonly ToolFingerprint[];
  /** the asset's tool baseline from earlier observations, passed in by the caller (docs/drift.md); null: none */
  readonly baseline: ToolBaseline | null;
}

/** One finding as a rule reports it; the rest (category, remediation, weight) comes from the rule's definition. */
export interface Emission {
  description: string;
  evidence: Record<string, unknown>;
  severity?: Severity;
  confidence?: number;
  capabilities?: string[];
  cve_ids?: string[];
  title?: string;
  attack_techniques?: string[];
}

export interface RuleSpec<Id extends string> {
  id: Id;
  title: string;
  /** default severity; an emission may carry another one */
  severity: Severity;
  /** base weight: SEVERITY_WEIGHT[severity] (checked by defineRule) */
  weight: number;
  category: string;
  rationale: string;
  remediation: string;
  /** MITRE ATLAS technique ids; each must exist in the shipped ATLAS release (src/data/atlas.json, checked here) */
  attack_techniques: readonly string[];
  /** where the rule comes from: the research rule table entry, advisories, documentation */
  references: readonly string[];
  /** Findings for one manifest, in a deterministic order; never throws on any input. */
  evaluate(ctx: RuleContext): readonly Emission[];
}

export type RuleDefinition<Id extends string = string> = Readonly<RuleSpec<Id>>;

export function defineRule<const Id extends string>(spec: RuleSpec<Id>): RuleDefinition<Id> {
  if (spec.weight !== SEVERITY_WEIGHT[spec.severity])
    throw new Error(`rule ${spec.id}: weight ${spec.weight} is not the base weight of ${spec.severity}`);
  const unknown = spec.attack_techniques.filter((t) => !atlasTechnique(t));
  if (unknown.length)
    throw new Error(`rule ${spec.id}: ${unknown.join(', ')} not in MITRE ATLAS ${ATLAS_VERSION} (src/data/atlas.json)`);
  return Object.freeze(spec);
}

/** Whether a rule evaluated earlier reported a finding (rules are evaluated in registry order). */
export function fired(ctx: RuleContext, rule: RuleDefinition): boolean {
  return ctx.findings.some((f) => f.rule_id === rule.id);
}

export function toFinding(rule: RuleDefinition, e: Emission): FindingDraft {
  const severity = e.severity ?? rule.severity;
  const confidence = e.confidence ?? 1;
  return {
    rule_id: rule.id,
    title: e.title ?? rule.title,
    description: e.description,
    severity,
    category: rule.category,
    confidence,
    evidence: e.evidence,
    capabilities: e.capabilities ?? [],
    attack_techniques: e.attack_techniques ?? [...rule.attack_techniques],
    cve_ids: e.cve_ids ?? [],
    threat_ids: [],
    remediation: rule.remediation,
    weight: Math.round(SEVERITY_WEIGHT[severity] * confidence * 100) / 100,
  };
}
