import type { Policy, Rule } from '../../api/types';
import { createRuleBody, draftOf, EMPTY_RULE, policyDraftOf, updatePolicyBody, updateRuleBody } from './rule-draft';

const rule = {
  id: 'rul_1',
  name: 'block clones',
  action: 'block',
  enabled: true,
  domains: ['a.example', '*.b.example'],
  categories: [],
  min_risk_score: null,
  min_asset_severity: null,
} as unknown as Rule;
const policy = { name: 'AI', description: null, default_action: 'allow', version: 7 } as unknown as Policy;

describe('createRuleBody', () => {
  it('splits the lists and leaves out what is empty', () => {
    expect(createRuleBody({ ...EMPTY_RULE, domains: 'a.example, b.example a.example', minScore: '' })).toEqual({
      action: 'block',
      enabled: true,
      domains: ['a.example', 'b.example'],
      categories: [],
    });
    expect(createRuleBody({ ...EMPTY_RULE, name: ' x ', minScore: '70', minSeverity: 'high' })).toMatchObject({
      name: 'x',
      min_risk_score: 70,
      min_asset_severity: 'high',
    });
  });
});

describe('updateRuleBody', () => {
  it('is null when nothing changed (the lists compared after parsing)', () => {
    expect(updateRuleBody({ rule, draft: draftOf(rule), version: 7 })).toBeNull();
    expect(
      updateRuleBody({ rule, draft: { ...draftOf(rule), domains: 'a.example *.b.example' }, version: 7 }),
    ).toBeNull();
  });
  it('sends only the changed fields with expected_version; emptied optional fields are null', () => {
    const draft = { ...draftOf(rule), action: 'alert' as const, domains: 'c.example', name: '', minScore: '50' };
    expect(updateRuleBody({ rule, draft, version: 7 })).toEqual({
      action: 'alert',
      domains: ['c.example'],
      name: null,
      min_risk_score: 50,
      expected_version: 7,
    });
    const withScore = { ...rule, min_risk_score: 40, min_asset_severity: 'low' } as Rule;
    expect(
      updateRuleBody({ rule: withScore, draft: { ...draftOf(withScore), minScore: '', minSeverity: '' }, version: 2 }),
    ).toEqual({ min_risk_score: null, min_asset_severity: null, expected_version: 2 });
    expect(updateRuleBody({ rule, draft: { ...draftOf(rule), enabled: false }, version: 3 })).toEqual({
      enabled: false,
      expected_version: 3,
    });
  });
});

describe('updatePolicyBody', () => {
  it('is null when nothing changed; otherwise the changed settings and expected_version', () => {
    expect(updatePolicyBody(policy, policyDraftOf(policy))).toBeNull();
    expect(updatePolicyBody(policy, { ...policyDraftOf(policy), name: ' AI 2 ', defaultAction: 'block' })).toEqual({
      name: 'AI 2',
      default_action: 'block',
      expected_version: 7,
    });
    const described = { ...policy, description: 'old' } as Policy;
    expect(updatePolicyBody(described, { ...policyDraftOf(described), description: '  ' })).toEqual({
      description: null,
      expected_version: 7,
    });
  });
});
