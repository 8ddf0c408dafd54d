import type { Threat } from '../api/types';
import { createBody, draftOf, emptyDraft, THREAT_ASSET_TYPES, THREAT_CATEGORIES, updateBody } from './threats';

describe('threat form ↔ body', () => {
  it('lists every category and asset type the API accepts', () => {
    expect(THREAT_CATEGORIES).toHaveLength(14);
    expect(THREAT_ASSET_TYPES).toContain('mcp_server');
  });

  it('a create body leaves empty fields out and parses lists and numbers', () => {
    const d = {
      ...emptyDraft(),
      title: '  Backdoored model  ',
      fingerprints: 'hf:org/m\n\n  hf:org/n  \n',
      attack_techniques: 'AML.T0010, AML.T0018.002 AML.T0010',
      confidence: '0.8',
      risk_penalty: '30',
    };
    expect(createBody(d)).toEqual({
      title: 'Backdoored model',
      category: 'other',
      severity: 'medium',
      fingerprints: ['hf:org/m', 'hf:org/n'],
      attack_techniques: ['AML.T0010', 'AML.T0018.002'],
      confidence: 0.8,
      risk_penalty: 30,
    });
  });

  it('an update body clears emptied optional fields with null', () => {
    const t = {
      title: 'T',
      category: 'jailbreak',
      severity: 'high',
      description: 'd',
      confidence: 0.5,
      affected_asset_types: ['model'],
      fingerprints: ['a'],
      attack_techniques: [],
      cve_id: 'CVE-2024-12345',
      remediation: null,
      source: 's',
      risk_penalty: 10,
    } as unknown as Threat;
    const d = { ...draftOf(t), description: '', cve_id: ' ', confidence: '' };
    expect(updateBody(d)).toEqual({
      title: 'T',
      category: 'jailbreak',
      severity: 'high',
      description: null,
      confidence: null,
      affected_asset_types: ['model'],
      fingerprints: ['a'],
      attack_techniques: [],
      cve_id: null,
      remediation: null,
      source: 's',
      risk_penalty: 10,
    });
  });
});
