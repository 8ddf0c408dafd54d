// R00: positive provenance signals, recorded with weight 0 so the score stays monotonic (docs/enrichment.md "Scoring").
import { normalizeLicense } from '../license';
import { uniq } from '../util';
import { defineRule, type Emission } from './define';
import { weightFiles } from './serialization';
import { rangedDependencies } from './pinning';

export const R00 = defineRule({
  id: 'R00',
  title: 'Positive provenance signals',
  severity: 'informational',
  weight: 0,
  category: 'provenance',
  rationale:
    'safetensors-only weights, pinned versions, declared licence: recorded for transparency; weight 0 so the score stays monotonic.',
  remediation: 'None needed.',
  attack_techniques: [],
  references: ['§3 R00; recorded with weight 0 instead of subtracting up to 10 (see Scoring)'],
  evaluate(ctx) {
    const { p } = ctx;
    const out: Emission[] = [];
    const { pickles, safe } = weightFiles(ctx);
    if (safe.length > 0 && pickles.length === 0)
      out.push({
        description: 'Weights are available in a non-executable format.',
        evidence: { path: 'files', formats: uniq(safe.map((f) => (f.split('.').pop() ?? '').toLowerCase())) },
      });
    if (p.licenses.length > 0 && p.licenses.every((l) => normalizeLicense(l).valid))
      out.push({
        description: 'Licence declared with a valid SPDX identifier.',
        evidence: { path: 'license', license: p.licenses },
      });
    if (p.dependencies.length && rangedDependencies(ctx).length === 0)
      out.push({
        description: 'All dependencies are pinned.',
        evidence: { path: 'dependencies', count: p.dependencies.length },
      });
    return out;
  },
});
