import { randomUUID } from 'node:crypto';
import { uniqueBy, type VexEntry } from './statements';

/** CycloneDX 1.6 VEX: a BOM whose `vulnerabilities` carry the org's analysis (docs/triage.md). */

// the asset types (packages/contracts signals.ts) as CycloneDX component types
const COMPONENT_TYPE: Record<string, string> = {
  model: 'machine-learning-model',
  dataset: 'data',
  container_image: 'container',
  package: 'library',
  extension: 'application',
};

// OpenVEX/CISA justifications → CycloneDX impactAnalysisJustification
const JUSTIFICATION: Record<string, string> = {
  component_not_present: 'code_not_present',
  vulnerable_code_not_present: 'code_not_present',
  vulnerable_code_not_in_execute_path: 'code_not_reachable',
  vulnerable_code_cannot_be_controlled_by_adversary: 'requires_environment',
  inline_mitigations_already_exist: 'protected_by_mitigating_control',
};

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

function analysisOf(e: VexEntry): Record<string, unknown> {
  const detail = e.comment ?? undefined;
  const dated = { ...(detail ? { detail } : {}), ...(e.updated ? { lastUpdated: iso(e.updated) } : {}) };
  switch (e.state) {
    case 'not_affected':
      return {
        state: 'not_affected',
        justification: JUSTIFICATION[e.justification ?? ''] ?? 'code_not_present',
        ...dated,
      };
    case 'false_positive':
      return { state: 'false_positive', ...dated };
    case 'resolved':
      return { state: 'resolved', ...dated };
    case 'acknowledged':
      return { state: 'exploitable', ...dated };
    case 'accepted_risk':
      return {
        state: 'exploitable',
        response: ['will_not_fix'],
        ...dated,
        detail: `Risk accepted until ${e.expires_at ? iso(e.expires_at) : 'further notice'}${detail ? `: ${detail}` : '.'}`,
      };
    default:
      return { state: 'in_triage', ...dated };
  }
}

export function renderCycloneDxVex(input: {
  asset: { fingerprint: string; asset_type: string; name: string | null; version: string | null };
  purl: string | null;
  entries: VexEntry[];
  now: Date;
}): Record<string, unknown> {
  const ref = input.asset.fingerprint;
  const component = {
    type: COMPONENT_TYPE[input.asset.asset_type] ?? 'application',
    'bom-ref': ref,
    name: input.asset.name ?? input.asset.fingerprint,
    ...(input.asset.version ? { version: input.asset.version } : {}),
    ...(input.purl ? { purl: input.purl } : {}),
  };
  const vulns = uniqueBy(
    input.entries.map((e) => ({
      id: e.vulnerability,
      ...(e.is_cve ? { source: { name: 'NVD', url: `https://nvd.nist.gov/vuln/detail/${e.vulnerability}` } } : {}),
      ratings: [{ severity: e.finding.severity === 'informational' ? 'info' : e.finding.severity, method: 'other' }],
      description: e.finding.title,
      ...(e.finding.remediation ? { recommendation: e.finding.remediation } : {}),
      analysis: analysisOf(e),
      affects: [{ ref }],
    })),
    (v) => JSON.stringify(v),
  ).map((v, i) => ({ 'bom-ref': `vex-${i + 1}`, ...v }));
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: `urn:uuid:${randomUUID()}`,
    version: 1,
    metadata: {
      timestamp: iso(input.now),
      tools: { components: [{ type: 'application', name: 'risk-intelligence-platform' }] },
      component,
    },
    vulnerabilities: vulns,
  };
}
