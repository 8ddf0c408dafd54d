import { ATLAS_TECHNIQUES } from '../src/atlas';
import { analyze } from '../src/index';
import { defineRule, RULES, ruleById, SEVERITY_WEIGHT } from '../src/rules';

describe('rule registry', () => {
  it('holds each rule once, with the base weight of its severity and known ATLAS ids', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const known = ATLAS_TECHNIQUES;
    for (const r of RULES) {
      expect(r.weight).toBe(SEVERITY_WEIGHT[r.severity]);
      expect(r.references.length).toBeGreaterThan(0);
      for (const t of r.attack_techniques) expect(known.has(t)).toBe(true);
    }
  });

  it('rejects a definition whose weight is not its severity base', () => {
    expect(() =>
      defineRule({
        id: 'X1',
        title: 'x',
        severity: 'high',
        weight: 15,
        category: 'x',
        rationale: 'x',
        remediation: 'x',
        attack_techniques: [],
        references: [],
        evaluate: () => [],
      }),
    ).toThrow(/base weight/);
  });

  it('looks rules up by a typed id (a wrong id is a compile error)', () => {
    expect(ruleById('R05').title).toBe('Remote code required to load the model');
    // @ts-expect-error 'R99' is not a RuleId: the registry's ids are a closed union
    expect(() => ruleById('R99')).toThrow(/unknown rule/);
  });

  it('stamps a finding with the definition that reported it', () => {
    const a = analyze({
      fingerprint: 'fp-registry',
      asset_type: 'model',
      name: 'someone/tiny-model',
      raw_manifest: JSON.stringify({ architectures: ['X'], auto_map: { AutoModel: 'modeling_x.X' } }),
    });
    const f = a.findings.find((x) => x.rule_id === 'R05');
    const def = ruleById('R05');
    expect(f).toMatchObject({ title: def.title, category: def.category, remediation: def.remediation, weight: 35 });
  });
});
