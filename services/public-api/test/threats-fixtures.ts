// Shared setup of the threat suites (threats-crud, threats-update, threats-list, threats-match).
import { createHarness, type Harness } from './harness';

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** A harness with a key of another org and a read-only key, as the CRUD and update suites use. */
export async function createThreatsHarness(
  label: string,
): Promise<{ h: Harness; otherOrgKey: string; readOnlyKey: string }> {
  const h = await createHarness(label);
  const otherOrgKey = await h.mintKey({ orgId: 'org_threats_other' });
  const readOnlyKey = await h.mintKey({ scopes: ['threats:read'] });
  return { h, otherOrgKey, readOnlyKey };
}

export const fullThreat = {
  category: 'malicious_model',
  title: 'Pickle payload in model weights',
  description: 'The checkpoint runs code on load.',
  severity: 'critical',
  confidence: 0.9,
  affected_asset_types: ['model'],
  fingerprints: ['hf:evil/model'],
  attack_techniques: ['AML.T0010', 'AML.T0010.003'],
  cve_id: 'CVE-2024-12345',
  remediation: 'Remove the model; load weights with safetensors.',
  source: 'https://example.org/advisory/1',
  risk_penalty: 40,
  metadata: { feed: 'internal', tags: ['pickle'] },
};
