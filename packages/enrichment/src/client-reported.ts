// Scan results a client reports itself for the files it names (docs/artifacts.md "Client-reported scan results"): the
// findings they add to the reporting org's own view of an asset. Not a rule of RULES: the shared enrichment never sees
// them, so another org's view, the shared verdict of the hash and the asset's shared findings stay the platform's.
import type { ArtifactVerdictValue, FindingDraft, Severity } from './types';
import { truncate } from './util';

/** One file the org reported a scan result for, with the platform's own verdict for those bytes (null: none). */
export interface ClientReport {
  path: string;
  sha256: string;
  verdict: string;
  analyser: string;
  analyser_version: string;
  findings: unknown;
  reported_at: string | null;
  platform_verdict: string | null;
}

/**
 * A finding of the org's view made from a client-reported scan result; its evidence says so (`source`). A
 * FindingDraft without what only the platform's own analysis fills (CVEs, threats, a score weight), and always with a
 * remediation.
 */
export type ClientReportedFinding = Omit<
  FindingDraft,
  'cve_ids' | 'threat_ids' | 'weight' | 'benchmark' | 'remediation'
> & {
  remediation: string;
};

/** The `evidence.source` of a finding made from what a client reported (the platform's own findings have none). */
export const CLIENT_REPORTED_SOURCE = 'client_reported';

/** At most this many client-reported findings per verdict and asset; the last one counts the rest. */
const MAX_FILES_PER_RULE = 20;
/** At most this many of the client's own findings quoted as evidence of one file. */
const MAX_EVIDENCE_FINDINGS = 10;
/** A claim the platform did not verify: below the analyser's own findings (0.9 and up). */
const CONFIDENCE = 0.6;

const UPLOAD =
  'Upload the file (POST /v1/artifacts) to have the platform scan the bytes; its verdict replaces this one.';

/**
 * What each reported verdict adds. Only raising verdicts appear: a reported `benign` (or `unsupported`) adds nothing
 * and lowers nothing, so a hostile or mistaken client cannot whitewash a file, not even in its own view: an unscanned
 * pickle stays "pickle: high" whatever the client says (docs/artifacts.md "Client-reported scan results").
 */
const BY_VERDICT: Partial<
  Record<ArtifactVerdictValue, { rule_id: string; severity: Severity; word: string; remediation: string }>
> = {
  malicious: {
    rule_id: 'artifact_reported_malicious',
    severity: 'critical',
    word: 'malicious',
    remediation: `Do not load the file until it is cleared. ${UPLOAD}`,
  },
  suspicious: {
    rule_id: 'artifact_reported_suspicious',
    severity: 'high',
    word: 'suspicious',
    remediation: `Review the reported findings before loading. ${UPLOAD}`,
  },
  invalid: {
    rule_id: 'artifact_reported_unverified',
    severity: 'medium',
    word: 'malformed or truncated',
    remediation: `Re-export the file from its source and load it only in a sandbox until then. ${UPLOAD}`,
  },
  unscannable: {
    rule_id: 'artifact_reported_unverified',
    severity: 'medium',
    word: 'unscannable',
    remediation: `Load it only in a sandbox until it is verified. ${UPLOAD}`,
  },
};

/** The verdicts in rising order (docs/artifacts.md "Verdicts"). */
const RANK: Record<ArtifactVerdictValue, number> = {
  benign: 0,
  unsupported: 1,
  unscannable: 2,
  invalid: 3,
  suspicious: 4,
  malicious: 5,
};
/** Platform verdicts from a complete reading of the bytes: no client claim overrules them, in either direction. */
const READ_THROUGH = new Set<string>(['benign', 'suspicious', 'malicious']);

/**
 * Whether a report adds a finding: a raising verdict (malicious, suspicious, invalid, unscannable) for bytes the
 * platform has not read through. A platform verdict from a complete reading always wins (its scan of the bytes is a
 * fact; the client's is a claim); one that proves nothing (`unsupported`, `unscannable`, `invalid`) lets only a worse
 * claim through, so a report can only ever raise.
 */
export function reportCounts(r: Pick<ClientReport, 'verdict' | 'platform_verdict'>): boolean {
  const reported = r.verdict as ArtifactVerdictValue;
  if (BY_VERDICT[reported] === undefined) return false;
  if (r.platform_verdict === null) return true;
  if (READ_THROUGH.has(r.platform_verdict)) return false;
  return RANK[reported] > (RANK[r.platform_verdict as ArtifactVerdictValue] ?? Number.POSITIVE_INFINITY);
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, n: number): string | undefined => (typeof v === 'string' ? truncate(v, n) : undefined);

/** The client's own findings, bounded and reduced to the fields the API accepted (they are the client's words). */
function quotedFindings(findings: unknown): Record<string, unknown>[] {
  if (!Array.isArray(findings)) return [];
  return findings
    .filter(isObj)
    .slice(0, MAX_EVIDENCE_FINDINGS)
    .map((f) => {
      const e = isObj(f.evidence) ? f.evidence : {};
      const out: Record<string, unknown> = { id: str(f.id, 100) ?? '', message: str(f.message, 200) ?? '' };
      for (const k of ['callable', 'member', 'excerpt'] as const) {
        const v = str(e[k], 200);
        if (v !== undefined) out[k] = v;
      }
      if (typeof e.offset === 'number' && Number.isSafeInteger(e.offset)) out.offset = e.offset;
      return out;
    });
}

/**
 * The findings the org's own reports add to its view of one asset, one per file whose report counts (reportCounts), in
 * path order, at most 20 per rule. Evidence carries `source: "client_reported"`, the analyser that made the claim and
 * its findings, so SARIF, the console and the AI-BOM can tell them from the platform's.
 */
export function clientReportedFindings(reports: readonly ClientReport[]): ClientReportedFinding[] {
  const byRule = new Map<string, ClientReportedFinding[]>();
  const counted = new Map<string, number>();
  const sorted = [...reports].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : a.sha256 < b.sha256 ? -1 : 1,
  );
  for (const r of sorted) {
    if (!reportCounts(r)) continue;
    const kind = BY_VERDICT[r.verdict as ArtifactVerdictValue]!;
    counted.set(kind.rule_id, (counted.get(kind.rule_id) ?? 0) + 1);
    const list = byRule.get(kind.rule_id) ?? [];
    byRule.set(kind.rule_id, list);
    if (list.length >= MAX_FILES_PER_RULE) continue;
    const analyser = `${truncate(r.analyser, 100)} ${truncate(r.analyser_version, 64)}`;
    const quoted = quotedFindings(r.findings);
    const first = quoted[0];
    list.push({
      rule_id: kind.rule_id,
      title: `File reported ${r.verdict} by your scanner: ${truncate(r.path, 160)}`,
      description:
        `Your own scanner (${analyser}) reported ${truncate(r.path, 300)} ${kind.word}` +
        `${first ? `: ${first.message as string}` : ''}. The platform has not read these bytes through; ` +
        "this finding is in your organisation's view only.",
      severity: kind.severity,
      category: 'unsafe_serialization',
      confidence: CONFIDENCE,
      evidence: {
        source: CLIENT_REPORTED_SOURCE,
        path: r.path,
        sha256: r.sha256,
        verdict: r.verdict,
        analyser: r.analyser,
        analyser_version: r.analyser_version,
        reported_at: r.reported_at,
        platform_verdict: r.platform_verdict,
        analyser_findings: quoted,
      },
      capabilities: kind.severity === 'medium' ? [] : ['code_execution_on_load'],
      attack_techniques: kind.severity === 'medium' ? ['AML.T0010.003'] : ['AML.T0011.000'],
      remediation: kind.remediation,
    });
  }
  const out: ClientReportedFinding[] = [];
  for (const [rule, list] of byRule) {
    const last = list[list.length - 1];
    const more = (counted.get(rule) ?? 0) - list.length;
    if (last && more > 0) last.evidence = { ...last.evidence, more_files: more };
    out.push(...list);
  }
  return out;
}
