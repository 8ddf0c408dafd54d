import { diffComponents, diffFindingSnapshots, diffLineage, diffPrimaryLicense } from './aibom-diff';

// component shapes as the engine writes them (packages/enrichment/src/index.ts, aibom.components)
const c = (over: Record<string, unknown>) => ({
  type: 'library',
  name: 'diff',
  version: '8.0.3',
  license: 'BSD-3-Clause',
  supplier: null,
  hashes: [],
  primary: false,
  ...over,
});

describe('AI-BOM diff', () => {
  test('a version bump of the same component is a change, not a removal and an addition', () => {
    const out = diffComponents([c({})], [c({ version: '8.1.0' })]);
    expect(out).toEqual({
      added: [],
      removed: [],
      changed: [{ type: 'library', name: 'diff', changes: { version: { from: '8.0.3', to: '8.1.0' } } }],
    });
  });

  test('hashes compare by content whatever the key order; supplier and licence changes are reported', () => {
    const before = c({ hashes: [{ alg: 'SHA256', value: 'ab' }], supplier: 'a' });
    const same = c({ hashes: [{ value: 'ab', alg: 'SHA256' }], supplier: 'a' });
    expect(diffComponents([before], [same]).changed).toEqual([]);
    const changed = diffComponents(
      [before],
      [c({ hashes: [{ alg: 'SHA256', value: 'cd' }], supplier: 'b', license: 'MIT' })],
    );
    expect(Object.keys(changed.changed[0]!.changes).sort()).toEqual(['hashes', 'license', 'supplier']);
  });

  test('lineage: relation and base models; primary licence only when it changed', () => {
    const a = { relation: 'adapter', base_models: [{ id: 'x/base' }] };
    const b = { relation: 'finetune', base_models: [{ id: 'y/base' }] };
    expect(diffLineage(a, b)).toEqual({
      relation: { from: 'adapter', to: 'finetune' },
      base_models_added: ['y/base'],
      base_models_removed: ['x/base'],
    });
    expect(diffLineage(null, null)).toEqual({ relation: null, base_models_added: [], base_models_removed: [] });
    const p = (license: string) => [c({ primary: true, name: 'm', license })];
    expect(diffPrimaryLicense(p('MIT'), p('MIT'))).toBeNull();
    expect(diffPrimaryLicense(p('MIT'), p('CC-BY-NC-4.0'))).toEqual({ from: 'MIT', to: 'CC-BY-NC-4.0' });
  });

  test('findings are matched by snapshot key, never by title alone', () => {
    const f = (key: string, title: string) => ({ key, rule_id: 'R10', title, severity: 'low' as const });
    const out = diffFindingSnapshots([f('k1', 'licence'), f('k2', 'licence')], [f('k2', 'licence'), f('k3', 'other')]);
    expect(out).toEqual({
      added: [{ rule_id: 'R10', title: 'other', severity: 'low' }],
      removed: [{ rule_id: 'R10', title: 'licence', severity: 'low' }],
    });
  });
});
