// The rule registry: every rule the engine runs, in evaluation order. docs/enrichment.md's rule catalogue is
// generated from it (scripts/gen-rules-doc.ts); adding a rule = one defineRule in its family file + one entry here.
import type { ToolBaseline, ToolFingerprint } from '../drift';
import type { EnrichmentInput, FindingDraft, ParsedManifest } from '../types';
import { R16, R17, R18, R19, R26, R27 } from './capabilities';
import { ARTIFACT_MALICIOUS, ARTIFACT_SUSPICIOUS, ARTIFACT_UNVERIFIED, PICKLE_SCANNED_BENIGN } from './artifacts';
import { R29 } from './combinations';
import { R30, R31, R32, R33 } from './drift';
import { R20 } from './credentials';
import { toFinding, type RuleContext, type RuleDefinition } from './define';
import { R24, R25 } from './exposure';
import { R08, R09, R10, R11, R28 } from './licence';
import {
  ANALYSIS_TRUNCATED,
  FORMAT_NOT_ANALYSED,
  MANIFEST_LINES_SKIPPED,
  MANIFEST_UNPARSEABLE,
  THREAT_MATCH,
} from './manifest';
import { R00 } from './positive';
import { R12, R13, R14, R15 } from './provenance';
import { R01, R02, R03, R04, R05, R06, R07 } from './serialization';
import { R21, R22 } from './pinning';
import { R34, R35, R36 } from './supply-chain';
import { R23 } from './vulnerable-versions';

/**
 * Rules in catalogue order, which is also evaluation order: a rule may look at the findings of the rules before it
 * (`fired`), e.g. R10 defers to R09.
 */
export const RULES = [
  R00,
  R01,
  R02,
  R03,
  R04,
  R05,
  R06,
  R07,
  R08,
  R09,
  R10,
  R11,
  R12,
  R13,
  R14,
  R15,
  R16,
  R17,
  R18,
  R19,
  R20,
  R21,
  R22,
  R23,
  R24,
  R25,
  R26,
  R27,
  R28,
  R29,
  R30,
  R31,
  R32,
  R33,
  R34,
  R35,
  R36,
  ARTIFACT_MALICIOUS,
  ARTIFACT_SUSPICIOUS,
  ARTIFACT_UNVERIFIED,
  PICKLE_SCANNED_BENIGN,
  MANIFEST_UNPARSEABLE,
  FORMAT_NOT_ANALYSED,
  MANIFEST_LINES_SKIPPED,
  ANALYSIS_TRUNCATED,
  THREAT_MATCH,
] as const;

/** Every rule id; a string that is not one does not compile where a RuleId is expected. */
export type RuleId = (typeof RULES)[number]['id'];

export const RULE_BY_ID: ReadonlyMap<RuleId, RuleDefinition<RuleId>> = new Map(RULES.map((r) => [r.id, r]));

export function ruleById(id: RuleId): RuleDefinition<RuleId> {
  const r = RULE_BY_ID.get(id);
  if (!r) throw new Error(`unknown rule ${id}`);
  return r;
}

/** Whether a finding comes from one of the rules (ids checked at compile time). */
export function isRule(f: { rule_id: string }, ...ids: readonly RuleId[]): boolean {
  return (ids as readonly string[]).includes(f.rule_id);
}

/** What the rules see besides the signal and its parse: the publisher, the fingerprinted tools and their baseline. */
export interface RuleExtras {
  publisher: string | null;
  tools?: readonly ToolFingerprint[];
  baseline?: ToolBaseline | null;
}

/** Run every rule over the parsed manifest, in registry order. Output order is deterministic. */
export function evaluateRules(input: EnrichmentInput, p: ParsedManifest, extras: RuleExtras): FindingDraft[] {
  const findings: FindingDraft[] = [];
  const ctx: RuleContext = {
    input,
    p,
    raw: typeof input.raw_manifest === 'string' ? input.raw_manifest : '',
    publisher: extras.publisher,
    findings,
    tools: extras.tools ?? [],
    baseline: extras.baseline ?? null,
  };
  for (const rule of RULES) for (const e of rule.evaluate(ctx)) findings.push(toFinding(rule, e));
  return findings;
}
