import { buildSpdx3, enrich, spdx3InputFromStored, type StoredComponent } from '@risk/enrichment';
import { checkAgainstSchema } from '@risk/testing';

// The SPDX 3.0.1 serializer alone (docs/formats.md "SPDX 3.0.1"): manifests that fill the AI profile fields the route
// test's model card does not (hyperparameters, type of model), validated against the published schema. No database.
type Element = Record<string, unknown>;
function spdx3Of(fingerprint: string, raw: string, asset_type: 'model' | 'dataset' | 'mcp_server' = 'model') {
  const result = enrich(
    { fingerprint, asset_type, name: fingerprint.split(':')[1], raw_manifest: raw },
    {
      threats: [],
      publisher: { org_count: 1, signal_count: 1, first_seen: '2026-01-01T00:00:00.000Z' },
      now: '2026-01-02T03:04:05.000Z',
    },
  );
  const doc = buildSpdx3(
    spdx3InputFromStored(result.aibom.spdx, result.aibom.components as unknown as StoredComponent[]),
  );
  return { doc, graph: doc['@graph'] as Element[] };
}

describe('buildSpdx3', () => {
  test('a Modelfile: hyperparameters as DictionaryEntry, safety risk from the score, created from the AI-BOM', () => {
    const { doc, graph } = spdx3Of('ollama:acme/m', 'FROM llama3\nPARAMETER temperature 0.7\nPARAMETER num_ctx 4096\n');
    expect(checkAgainstSchema('spdx-3.0.1', doc)).toEqual({ valid: true, errors: [] });
    const model = graph.find((e) => e.type === 'ai_AIPackage' && e.name === 'acme/m')!;
    expect(model.ai_hyperparameter).toEqual([
      { type: 'DictionaryEntry', key: 'num_ctx', value: '4096' },
      { type: 'DictionaryEntry', key: 'temperature', value: '0.7' },
    ]);
    expect(['serious', 'high', 'medium', 'low']).toContain(model.ai_safetyRiskAssessment);
    expect(graph.find((e) => e.type === 'CreationInfo')).toMatchObject({
      '@id': '_:creationinfo',
      specVersion: '3.0.1',
      created: '2026-01-02T03:04:05Z',
    });
  });

  test('a config.json: type of model from model_type and architectures', () => {
    const { doc, graph } = spdx3Of(
      'hf:acme/cfg',
      JSON.stringify({ model_type: 'llama', architectures: ['LlamaForCausalLM'] }),
    );
    expect(checkAgainstSchema('spdx-3.0.1', doc).valid).toBe(true);
    expect(graph.find((e) => e.type === 'ai_AIPackage')).toMatchObject({
      ai_typeOfModel: ['llama', 'LlamaForCausalLM'],
      software_packageUrl: 'pkg:huggingface/acme/cfg',
    });
  });

  test('a non-model asset is a software_Package with its dependencies, and still valid', () => {
    const pkg = JSON.stringify({ name: 'srv', version: '1.0.0', dependencies: { express: '4.19.2' } });
    const { doc, graph } = spdx3Of('npm:srv', pkg, 'mcp_server');
    expect(checkAgainstSchema('spdx-3.0.1', doc).valid).toBe(true);
    expect(graph.filter((e) => e.type === 'ai_AIPackage')).toEqual([]);
    const deps = graph.filter((e) => e.type === 'Relationship' && e.relationshipType === 'dependsOn');
    expect(deps.length).toBeGreaterThan(0);
  });

  test('a stored AI-BOM without the ai annotation still renders (older rows, hand-made input)', () => {
    const doc = buildSpdx3(
      spdx3InputFromStored({ documentNamespace: 'https://x.example/doc', name: 'd', relationships: [] }, []),
    );
    expect(checkAgainstSchema('spdx-3.0.1', doc).valid).toBe(true);
  });
});
