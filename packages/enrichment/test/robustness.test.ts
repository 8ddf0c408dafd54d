import fc from 'fast-check';
import { analyze, enrich } from '../src/index';
import { CTX, input } from './helpers';
import { expectWithinBudget } from '@risk/time-budget';

describe('robustness', () => {
  it('analyze/enrich never throw on arbitrary manifests and metadata', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.constantFrom(
            '---\n',
            '---\nlicense: [\n---',
            '[project]\nname=',
            '{"mcpServers":{"a":5}}',
            '{"tools":[null,{"name":1}]}',
            'FROM\n',
          ),
        ),
        fc.option(
          fc.dictionary(
            fc.constantFrom('files', 'license', 'tools', 'pickle_imports', 'gguf', 'base_model', 'sha', 'siblings'),
            fc.jsonValue(),
          ),
          { nil: null },
        ),
        fc.constantFrom('model', 'mcp_server', 'agent', 'package', 'dataset') as fc.Arbitrary<'model'>,
        (raw, metadata, asset_type) => {
          const r = enrich(
            input({ raw_manifest: raw, metadata: metadata as Record<string, unknown> | null, asset_type }),
            CTX,
          );
          expect(r.findings.reduce((s, f) => s + f.score_contribution, 0)).toBe(r.intrinsic_risk_score);
        },
      ),
      { numRuns: 300 },
    );
  });
  it('pathological inputs stay fast (no catastrophic regex backtracking)', () => {
    const cases = [
      'a' + '==1'.repeat(20000) + ' !',
      'a ' + '==1   '.repeat(20000) + '!',
      JSON.stringify({ tools: [{ name: 'x', description: '<!--'.repeat(50000) }] }),
      '---\n' + 'k: v\n'.repeat(20000),
      'x'.repeat(1 << 20),
      'sk-' + 'a'.repeat(500000),
    ];
    for (const raw of cases) {
      expectWithinBudget(1500, () => analyze(input({ asset_type: 'mcp_server', raw_manifest: raw })));
    }
  });
});
