import data from '../src/data/ai-packages.json';
import feed from '../src/data/advisories.osv.json';
import { enrich } from '../src/index';
import { normalizeOsv, type AdvisoryRecord } from '../src/advisories/osv';
import { aiPackage, aiPackageNames, normalisePackageName } from '../src/rules/signals/ai-packages';
import { typosquatTarget } from '../src/rules/signals/publisher';
import { isDirectAiDependency } from '../src/rules/vulnerable-versions';
import { CTX, input } from './helpers';

const CAPS = new Set([
  'loads_pickles',
  'trust_remote_code',
  'executes_generated_code',
  'serves_ui_publicly',
  'network_egress',
]);
const ROLES = new Set([
  'model_runtime',
  'training',
  'model_format',
  'model_hub_client',
  'llm_client',
  'agent_framework',
  'rag_framework',
  'ui_serving',
  'serving',
  'vector_store',
  'mcp_sdk',
  'experiment_tracking',
  'data_tooling',
  'model_scanner',
  'nlp',
]);

describe('well-known AI packages data file', () => {
  it('is well-formed: unique normalised names, a known role, a source for every entry and capability', () => {
    expect(data._source).toMatch(/build-ai-packages/);
    expect(data.packages.length).toBeGreaterThanOrEqual(100);
    const keys = data.packages.map((p) => `${p.ecosystem}:${p.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const p of data.packages) {
      expect(['pypi', 'npm', 'go']).toContain(p.ecosystem);
      // PyPI names in their PEP 503 form, npm names lower case, as the registries compare them
      expect(p.name).toBe(normalisePackageName(p.ecosystem, p.name));
      if (p.ecosystem === 'pypi') expect(p.name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(p.publisher).not.toBe('');
      expect(ROLES.has(p.role)).toBe(true);
      expect(['pypa', 'curated', 'repository']).toContain(p.source.kind);
      expect(p.source.path).not.toBe('');
      if (p.source.kind !== 'curated') expect(p.source.commit).toMatch(/^[0-9a-f]{40}$/);
      if (p.source.kind === 'repository') expect(p.repository).toBe(`https://github.com/${p.source.repo}`);
      // every capability rests on a quoted sentence, and only on one
      expect(p.capabilities).toEqual(p.capabilities_from.map((c) => c.capability));
      for (const c of p.capabilities_from) {
        expect(CAPS.has(c.capability)).toBe(true);
        expect(c.sentence.length).toBeGreaterThan(20);
      }
    }
  });

  it('holds every package the curated advisory feed covers', () => {
    for (const r of feed.records)
      for (const a of r.affected) {
        expect(aiPackage(a.package.ecosystem.toLowerCase(), a.package.name)).not.toBeNull();
      }
  });

  it('finds a package by its exact name in the normal form, never by likeness', () => {
    expect(aiPackage('pypi', 'Sentence_Transformers')?.role).toBe('model_runtime');
    expect(aiPackage('pypi', 'huggingface_hub')?.publisher).toBe('huggingface');
    expect(aiPackage('npm', '@anthropic-ai/sdk')?.role).toBe('llm_client');
    expect(aiPackage('npm', '@anthropic-ai/sdk')?.capabilities).toEqual(['network_egress']);
    expect(aiPackage('pypi', 'gradio')?.capabilities).toContain('serves_ui_publicly');
    expect(aiPackage('pypi', 'torch')?.capabilities).toContain('loads_pickles');
    // one ecosystem's name is not another's
    expect(aiPackage('npm', 'sentence-transformers')).toBeNull();
    expect(aiPackage('pypi', 'transfomers')).toBeNull();
    expect(aiPackageNames()).toContain('smolagents');
  });
});

describe('AI packages in the engine', () => {
  it('a requirements file naming a listed AI library gives it the direct AI dependency role', () => {
    const dep = (name: string, path = 'requirements[0]') => ({ ecosystem: 'pypi' as const, name, spec: '==1.0', path });
    expect(isDirectAiDependency(dep('Smolagents'))).toBe(true);
    expect(isDirectAiDependency(dep('streamlit'))).toBe(true);
    expect(isDirectAiDependency(dep('requests'))).toBe(false);
  });

  it('a high advisory on a listed AI library outside the curated feed counts at full confidence', () => {
    const record = (name: string): AdvisoryRecord => {
      const n = normalizeOsv({
        id: `GHSA-test-${name}`,
        modified: '2026-01-01T00:00:00Z',
        summary: 'test advisory',
        database_specific: { severity: 'HIGH' },
        affected: [
          {
            package: { ecosystem: 'PyPI', name },
            ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '2.0' }] }],
          },
        ],
      });
      if (!n.ok) throw new Error(n.error);
      return n.record;
    };
    const r23 = (manifest: string, pkg: string) =>
      enrich(
        input({ asset_type: 'application', raw_manifest: manifest, advisories: [record(pkg)] }),
        CTX,
      ).findings.filter((f) => f.rule_id === 'R23');
    const ai = r23('smolagents==1.0\n', 'smolagents');
    expect(ai.length).toBe(1);
    expect(ai[0]!.confidence).toBe(1);
    const other = r23('left-pad-py==1.0\n', 'left-pad-py');
    expect(other.length).toBe(1);
    expect(other[0]!.confidence).toBeLessThan(1);
  });

  it('compares names against the listed AI libraries for typosquats (R15), the real names excepted', () => {
    expect(typosquatTarget('smolagent5')?.target).toBe('smolagents');
    expect(typosquatTarget('smolagents')).toBeNull();
    const r = enrich(input({ asset_type: 'application', raw_manifest: 'smolagentss==1.0\n' }), CTX);
    expect(r.findings.some((f) => f.rule_id === 'R15' && f.evidence.resembles === 'smolagents')).toBe(true);
  });
});
