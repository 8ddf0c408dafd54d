// Findings as SARIF 2.1.0 (docs/formats.md "SARIF"): one run of the engine, its rules from the rule registry, one result
// per finding with a level, the asset as the location, and a partial fingerprint that stays the same across
// enrichments (finding ids do not). Pure: the caller loads the assets and their findings.
import { createHash } from 'node:crypto';
import { atlasTechnique } from '../atlas';
import { purlFor, TOOL_NAME, TOOL_VERSION } from '../aibom/model';
import { RULES, type RuleDefinition } from '../rules';
import type { Severity } from '../types';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
/** The key of our partial fingerprint; bump the version if what it hashes ever changes. */
export const SARIF_FINGERPRINT_KEY = 'riskFindingIdentity/v1';

export interface SarifFinding {
  rule_id: string;
  title: string;
  description: string;
  severity: Severity;
  category: string;
  confidence: number;
  attack_techniques: readonly string[];
  cve_ids: readonly string[];
  /** threat ids (the API's `threats` without expansion) */
  threat_ids: readonly string[];
  remediation: string | null;
  evidence: unknown;
}

export interface SarifAsset {
  fingerprint: string;
  asset_type: string;
  name: string | null;
  version: string | null;
  ecosystem: string | null;
  intrinsic_risk_score: number | null;
  intrinsic_risk_severity: string | null;
  /** findings in a stable order (the API's: by finding id) */
  findings: readonly SarifFinding[];
}

type Json = Record<string, unknown>;

/** SARIF levels: what a code-scanning tool fails a build on (error) down to what it only lists (note). */
const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
  informational: 'note',
};

/** GitHub code scanning's `security-severity` (a CVSS-like 0–10 string) per severity band. */
const SECURITY_SEVERITY: Record<Severity, string> = {
  critical: '9.5',
  high: '8.0',
  medium: '5.5',
  low: '3.0',
  informational: '0.0',
};

const REGISTRY: ReadonlyMap<string, RuleDefinition> = new Map(RULES.map((r) => [r.id, r]));

/**
 * The URI a code-scanning tool shows for an asset: its package URL when the ecosystem has one (pkg:huggingface/…,
 * pkg:npm/…), else a URN naming the fingerprint.
 */
export function assetArtifactUri(a: Pick<SarifAsset, 'fingerprint' | 'ecosystem' | 'name' | 'version'>): string {
  const purl = a.name ? purlFor(a.ecosystem, a.name, a.version) : null;
  return purl ?? `urn:risk:asset:${encodeURIComponent(a.fingerprint)}`;
}

function ruleDescriptor(id: string, sample: SarifFinding): Json {
  const rule = REGISTRY.get(id);
  const techniques = rule ? rule.attack_techniques : sample.attack_techniques;
  const atlas = techniques.map((t) => atlasTechnique(t)).filter((t): t is NonNullable<typeof t> => t !== undefined);
  const severity = rule?.severity ?? sample.severity;
  const references = [...(rule?.references ?? []), ...atlas.map((t) => `MITRE ATLAS ${t.id} ${t.name}: ${t.url}`)];
  const help = [rule?.rationale, rule?.remediation ?? sample.remediation, ...references.map((r) => `- ${r}`)]
    .filter((x): x is string => !!x)
    .join('\n');
  const out: Json = {
    id,
    name: rule ? rule.title : sample.title,
    shortDescription: { text: rule ? rule.title : sample.title },
    fullDescription: { text: rule?.rationale ?? sample.description },
    help: { text: help || (rule?.title ?? sample.title) },
    defaultConfiguration: { level: LEVEL[severity] },
    properties: {
      category: rule?.category ?? sample.category,
      'security-severity': SECURITY_SEVERITY[severity],
      tags: ['security', 'ai-risk', rule?.category ?? sample.category, ...techniques],
    },
  };
  if (atlas[0]) out.helpUri = atlas[0].url;
  return out;
}

/** The file a finding's evidence names (most rules report `evidence.path`), if any. */
function evidencePath(evidence: unknown): string | null {
  if (!evidence || typeof evidence !== 'object') return null;
  const path = (evidence as Json).path;
  return typeof path === 'string' && path.length > 0 && path.length <= 1024 ? path : null;
}

/**
 * The judged file of an artifact finding (docs/artifacts.md "Judgement": evidence with a `sha256`): the bytes, the
 * verdict and what the analyser saw (callable, archive member, byte offset), for the result's properties.
 */
function artifactEvidence(evidence: unknown): Json | null {
  if (!evidence || typeof evidence !== 'object') return null;
  const e = evidence as Json;
  if (typeof e.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(e.sha256)) return null;
  const out: Json = { path: e.path, sha256: e.sha256 };
  // `source` and `analyser` mark a file judged by the client's own scanner (docs/artifacts.md "Client-reported scan
  // results"), not by the platform
  for (const k of ['source', 'format', 'verdict', 'analyser', 'analyser_version', 'analyser_findings'] as const)
    if (e[k] !== undefined) out[k] = e[k];
  return out;
}

function identity(fingerprint: string, f: SarifFinding): string {
  return createHash('sha256')
    .update(
      [fingerprint, f.rule_id, f.title, [...f.cve_ids].sort().join(','), [...f.threat_ids].sort().join(',')].join('\0'),
    )
    .digest('hex')
    .slice(0, 32);
}

/**
 * One SARIF 2.1.0 log with one run over the given assets. Rules are the registry entries the findings use (registry
 * order, so `ruleIndex` is stable); a rule id the registry no longer has is described from its finding.
 */
export function buildSarif(assets: readonly SarifAsset[], run: { automation_id: string }): Json {
  const used = new Map<string, SarifFinding>();
  for (const a of assets) for (const f of a.findings) if (!used.has(f.rule_id)) used.set(f.rule_id, f);
  const order = [...RULES.map((r) => r.id as string), ...[...used.keys()].filter((id) => !REGISTRY.has(id)).sort()];
  const ruleIds = order.filter((id) => used.has(id));
  const ruleIndex = new Map(ruleIds.map((id, i) => [id, i]));
  const results: Json[] = [];
  for (const a of assets) {
    const uri = assetArtifactUri(a);
    const seen = new Map<string, number>();
    for (const f of a.findings) {
      const base = identity(a.fingerprint, f);
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      const logical: Json[] = [{ name: a.name ?? a.fingerprint, fullyQualifiedName: a.fingerprint, kind: 'module' }];
      const path = evidencePath(f.evidence);
      if (path) logical.push({ name: path, fullyQualifiedName: `${a.fingerprint}/${path}`, kind: 'resource' });
      const artifact = artifactEvidence(f.evidence);
      results.push({
        ruleId: f.rule_id,
        ruleIndex: ruleIndex.get(f.rule_id),
        level: LEVEL[f.severity],
        message: { text: f.description ? `${f.title}: ${f.description}` : f.title },
        locations: [{ physicalLocation: { artifactLocation: { uri } }, logicalLocations: logical }],
        partialFingerprints: { [SARIF_FINGERPRINT_KEY]: n === 1 ? base : `${base}#${n}` },
        properties: {
          fingerprint: a.fingerprint,
          asset_type: a.asset_type,
          severity: f.severity,
          confidence: f.confidence,
          category: f.category,
          attack_techniques: [...f.attack_techniques],
          cve_ids: [...f.cve_ids],
          threat_ids: [...f.threat_ids],
          ...(f.remediation ? { remediation: f.remediation } : {}),
          ...(artifact ? { artifact } : {}),
        },
      });
    }
  }
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: TOOL_NAME,
            version: TOOL_VERSION,
            rules: ruleIds.map((id) => ruleDescriptor(id, used.get(id) as SarifFinding)),
          },
        },
        automationDetails: { id: run.automation_id },
        columnKind: 'unicodeCodePoints',
        results,
        properties: {
          assets: assets.map((a) => ({
            fingerprint: a.fingerprint,
            asset_type: a.asset_type,
            intrinsic_risk_score: a.intrinsic_risk_score,
            intrinsic_risk_severity: a.intrinsic_risk_severity,
          })),
        },
      },
    ],
  };
}
