// Threat form ↔ API body (docs/threats.md): the closed lists the API accepts, and the mapping of the form's
// text fields to a create body (empty fields left out) or an update body (emptied optional fields cleared with
// null). The server validates everything again; this only shapes what is sent.
import type { CreateThreatBody, Threat, UpdateThreatBody } from '../api/types';
import { splitList } from './text';

const CATEGORY_SET: Record<Threat['category'], true> = {
  supply_chain_compromise: true,
  malicious_model: true,
  malicious_package: true,
  model_backdoor: true,
  data_poisoning: true,
  prompt_injection: true,
  tool_poisoning: true,
  jailbreak: true,
  vulnerable_dependency: true,
  unsafe_deserialization: true,
  typosquat: true,
  credential_exposure: true,
  data_exfiltration: true,
  other: true,
};
export const THREAT_CATEGORIES = Object.keys(CATEGORY_SET) as Array<Threat['category']>;
export const THREAT_SEVERITIES: Array<Threat['severity']> = ['critical', 'high', 'medium', 'low', 'informational'];
const ASSET_TYPE_SET: Record<Threat['affected_asset_types'][number], true> = {
  model: true,
  dataset: true,
  mcp_server: true,
  agent: true,
  package: true,
  prompt: true,
  application: true,
  extension: true,
  notebook: true,
  container_image: true,
};
export const THREAT_ASSET_TYPES = Object.keys(ASSET_TYPE_SET) as Array<Threat['affected_asset_types'][number]>;

export interface ThreatDraft {
  title: string;
  category: Threat['category'];
  severity: Threat['severity'];
  description: string;
  /** 0–1 as typed, '' for none */
  confidence: string;
  affected_asset_types: Array<Threat['affected_asset_types'][number]>;
  /** one per line */
  fingerprints: string;
  /** comma or space separated */
  attack_techniques: string;
  cve_id: string;
  remediation: string;
  source: string;
  risk_penalty: string;
}

export function emptyDraft(): ThreatDraft {
  return {
    title: '',
    category: 'other',
    severity: 'medium',
    description: '',
    confidence: '',
    affected_asset_types: [],
    fingerprints: '',
    attack_techniques: '',
    cve_id: '',
    remediation: '',
    source: '',
    risk_penalty: '',
  };
}

export function draftOf(t: Threat): ThreatDraft {
  return {
    title: t.title,
    category: t.category,
    severity: t.severity,
    description: t.description ?? '',
    confidence: t.confidence === null ? '' : String(t.confidence),
    affected_asset_types: [...t.affected_asset_types],
    fingerprints: t.fingerprints.join('\n'),
    attack_techniques: t.attack_techniques.join(', '),
    cve_id: t.cve_id ?? '',
    remediation: t.remediation ?? '',
    source: t.source ?? '',
    risk_penalty: String(t.risk_penalty),
  };
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/** A number typed in a field ('' → undefined; text that is not a number is sent as NaN → the API's 400). */
function num(text: string): number | undefined {
  return text.trim() === '' ? undefined : Number(text);
}

export function createBody(d: ThreatDraft): CreateThreatBody {
  const body: CreateThreatBody = { title: d.title.trim(), category: d.category, severity: d.severity };
  if (d.description.trim()) body.description = d.description;
  if (num(d.confidence) !== undefined) body.confidence = num(d.confidence);
  if (d.affected_asset_types.length) body.affected_asset_types = d.affected_asset_types;
  if (lines(d.fingerprints).length) body.fingerprints = lines(d.fingerprints);
  if (splitList(d.attack_techniques).length) body.attack_techniques = splitList(d.attack_techniques);
  if (d.cve_id.trim()) body.cve_id = d.cve_id.trim();
  if (d.remediation.trim()) body.remediation = d.remediation;
  if (d.source.trim()) body.source = d.source;
  if (num(d.risk_penalty) !== undefined) body.risk_penalty = num(d.risk_penalty);
  return body;
}

export function updateBody(d: ThreatDraft): UpdateThreatBody {
  const orNull = (s: string) => (s.trim() ? s : null);
  return {
    title: d.title.trim(),
    category: d.category,
    severity: d.severity,
    description: orNull(d.description),
    confidence: num(d.confidence) ?? null,
    affected_asset_types: d.affected_asset_types,
    fingerprints: lines(d.fingerprints),
    attack_techniques: splitList(d.attack_techniques),
    cve_id: d.cve_id.trim() ? d.cve_id.trim() : null,
    remediation: orNull(d.remediation),
    source: orNull(d.source),
    ...(num(d.risk_penalty) !== undefined ? { risk_penalty: num(d.risk_penalty) } : {}),
  };
}
