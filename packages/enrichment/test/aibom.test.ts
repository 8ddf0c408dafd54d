import { cdxValidator, semanticSpdxProblems, validateSpdx, type Pkg, type Rel } from './spdx-checks';
import { enrich, renderSpdxTagValue } from '../src/index';
import { parseSpdxTagValue } from './spdx-tag-value';
import type { EnrichmentInput, EnrichmentResult } from '../src/index';
import { CTX, fixture, input } from './helpers';

const CASES: Array<[string, EnrichmentInput]> = [
  [
    'lora card with base_model',
    input({
      name: 'pcuenq/pokemon-lora',
      raw_manifest: fixture('21-hf-card-pokemon-lora-README.md'),
      metadata: { sha: 'ABCDEF0123456789abcdef0123456789abcdef01' },
    }),
  ],
  [
    'wav2vec2 card with datasets + model-index',
    input({
      name: 'KBLab/wav2vec2-base-voxpopuli-sv-swedish',
      raw_manifest: fixture('24-hf-card-wav2vec2-sv-ccbync-README.md'),
    }),
  ],
  [
    'codegeex2 weight index',
    input({ name: 'Lionelpang/codegeex2-6b', raw_manifest: fixture('33-hf-pytorch-bin-index-codegeex2.json') }),
  ],
  [
    'custom licence card',
    input({
      name: 'dreamlike-art/dreamlike-photoreal-2.0',
      raw_manifest: fixture('25-hf-card-dreamlike-photoreal-README.md'),
    }),
  ],
  [
    'npm MCP server',
    input({ asset_type: 'mcp_server', raw_manifest: fixture('01-mcp-server-filesystem-package.json') }),
  ],
  [
    'pyproject MCP server',
    input({ asset_type: 'mcp_server', raw_manifest: fixture('04-mcp-server-fetch-pyproject.toml') }),
  ],
  [
    'legacy registry server.json',
    input({ asset_type: 'mcp_server', raw_manifest: fixture('06-mcp-registry-legacy-server.json') }),
  ],
  [
    'agent config',
    input({
      asset_type: 'agent',
      fingerprint: 'fp agent/1',
      raw_manifest: JSON.stringify({
        mcpServers: {
          fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem@0.6.3'] },
          docs: { type: 'http', url: 'https://modelcontextprotocol.io/mcp' },
        },
      }),
    }),
  ],
  [
    'merge with hashes',
    input({
      name: 'acme/merged-7b',
      raw_manifest:
        '---\nlicense: mit OR apache-2.0\nbase_model:\n- a/one\n- b/two\ndatasets:\n- wikimedia/wikipedia\n---\n',
      metadata: { files: [{ path: 'model.safetensors', sha256: 'b'.repeat(64) }] },
    }),
  ],
  ['no manifest', input({ asset_type: 'application', name: null })],
];

describe.each(CASES)('AI-BOM: %s', (_label, inp) => {
  let r: EnrichmentResult;
  beforeAll(() => {
    r = enrich(inp, CTX);
  });
  it('SPDX 2.3 JSON validates against the official schema (draft-07) and the extra checks', () => {
    const ok = validateSpdx(r.aibom.spdx);
    expect(validateSpdx.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    expect(semanticSpdxProblems(r.aibom.spdx)).toEqual([]);
    expect((r.aibom.spdx.creationInfo as { created: string }).created).toBe('2026-11-22T10:11:12Z');
  });
  it('tag-value round-trips to the same document', () => {
    const tv = renderSpdxTagValue(r.aibom.spdx);
    expect(tv.startsWith('SPDXVersion: SPDX-2.3\nDataLicense: CC0-1.0\nSPDXID: SPDXRef-DOCUMENT\n')).toBe(true);
    const back = parseSpdxTagValue(tv);
    expect(back).toEqual(r.aibom.spdx);
    expect(semanticSpdxProblems(back)).toEqual([]);
  });
  it('CycloneDX 1.6 validates with @cyclonedx/cyclonedx-library', async () => {
    expect(await cdxValidator.validate(JSON.stringify(r.aibom.cyclonedx))).toBeNull();
    expect(r.aibom.cyclonedx.serialNumber).toMatch(
      /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('AI-BOM content', () => {
  it('lineage: LoRA adapter → base model as DESCENDANT_OF; datasets as DEPENDS_ON trainedOn', () => {
    const r = enrich(
      input({
        name: 'acme/merged-7b',
        raw_manifest:
          '---\nlicense: apache-2.0\nbase_model: meta-llama/Llama-2-7b-hf\nbase_model_relation: adapter\ndatasets: [tatsu-lab/alpaca]\n---\n',
      }),
      CTX,
    );
    expect(r.aibom.lineage).toEqual({
      base_models: [{ id: 'meta-llama/Llama-2-7b-hf', relation: 'adapter' }],
      relation: 'adapter',
      parents: ['meta-llama/Llama-2-7b-hf'],
      datasets: ['tatsu-lab/alpaca'],
    });
    const rels = r.aibom.spdx.relationships as Rel[];
    expect(rels).toEqual(
      expect.arrayContaining([
        {
          spdxElementId: 'SPDXRef-Model-acme-merged-7b',
          relationshipType: 'DESCENDANT_OF',
          relatedSpdxElement: 'SPDXRef-Model-meta-llama-Llama-2-7b-hf',
          comment: 'base_model_relation: adapter',
        },
        {
          spdxElementId: 'SPDXRef-Model-acme-merged-7b',
          relationshipType: 'DEPENDS_ON',
          relatedSpdxElement: 'SPDXRef-Dataset-tatsu-lab-alpaca',
          comment: 'trainedOn (model card datasets)',
        },
      ]),
    );
    const cdx = r.aibom.cyclonedx as {
      metadata: { component: { type: string; modelCard: unknown; pedigree: { ancestors: Array<{ name: string }> } } };
    };
    expect(cdx.metadata.component.type).toBe('machine-learning-model');
    expect(cdx.metadata.component.pedigree.ancestors[0]?.name).toBe('meta-llama/Llama-2-7b-hf');
  });
  it('infers base_model_relation when absent (LoRA card → adapter; GGUF → quantized; two parents → merge)', () => {
    expect(
      enrich(input({ name: 'pcuenq/pokemon-lora', raw_manifest: fixture('21-hf-card-pokemon-lora-README.md') }), CTX)
        .aibom.lineage,
    ).toMatchObject({ relation: 'adapter', parents: ['runwayml/stable-diffusion-v1-5'] });
    expect(
      enrich(
        input({ name: 'x/Llama-3-8B-GGUF', raw_manifest: '---\nbase_model: meta-llama/Meta-Llama-3-8B\n---\n' }),
        CTX,
      ).aibom.lineage,
    ).toMatchObject({ relation: 'quantized' });
    expect(
      enrich(input({ name: 'x/m', raw_manifest: '---\nbase_model: [a/b, c/d]\n---\n' }), CTX).aibom.lineage,
    ).toMatchObject({ relation: 'merge', parents: ['a/b', 'c/d'] });
  });
  it('no lineage without base_model or datasets', () => {
    expect(
      enrich(input({ raw_manifest: fixture('31-hf-config-codegeex2-auto-map.json') }), CTX).aibom.lineage,
    ).toBeNull();
  });
  it('components carry type, purl, licence and hashes; AI properties in an annotation named after SPDX 3', () => {
    const r = enrich(
      input({
        name: 'pcuenq/pokemon-lora',
        raw_manifest: fixture('21-hf-card-pokemon-lora-README.md'),
        metadata: {
          sha: 'ABCDEF0123456789abcdef0123456789abcdef01',
          files: [{ path: 'pytorch_lora_weights.safetensors', sha256: 'c'.repeat(64) }],
        },
      }),
      CTX,
    );
    const [primary] = r.aibom.components;
    expect(primary).toMatchObject({
      type: 'model',
      name: 'pcuenq/pokemon-lora',
      purl: 'pkg:huggingface/pcuenq/pokemon-lora@abcdef0123456789abcdef0123456789abcdef01',
      license: 'LicenseRef-creativeml-openrail-m',
      supplier: 'pcuenq',
    });
    expect(r.aibom.components.find((c) => c.type === 'file')).toMatchObject({
      hashes: [{ alg: 'SHA-256', content: 'c'.repeat(64) }],
    });
    const pkg = (r.aibom.spdx.packages as Pkg[])[0];
    const ai = JSON.parse(pkg?.annotations?.[0]?.comment ?? '{}') as Record<string, unknown>;
    expect(ai['ai:safetyRiskAssessment']).toBeDefined();
    const npm = enrich(
      input({ asset_type: 'mcp_server', raw_manifest: fixture('01-mcp-server-filesystem-package.json') }),
      CTX,
    );
    expect(npm.aibom.components[0]).toMatchObject({
      type: 'mcp_server',
      purl: 'pkg:npm/%40modelcontextprotocol/server-filesystem@0.6.3',
    });
    expect(npm.aibom.components.map((c) => c.purl)).toContain('pkg:npm/diff');
  });
  it('AI properties use SPDX 3.0.1 AI-profile names and value shapes (DictionaryEntry, lists, vocabularies)', () => {
    const AI_PROFILE = new Set([
      'autonomyType',
      'domain',
      'energyConsumption',
      'hyperparameter',
      'informationAboutApplication',
      'informationAboutTraining',
      'limitation',
      'metric',
      'metricDecisionThreshold',
      'modelDataPreprocessing',
      'modelExplainability',
      'safetyRiskAssessment',
      'standardCompliance',
      'typeOfModel',
      'useSensitivePersonalInformation',
    ]);
    const annotation = (r: EnrichmentResult) =>
      JSON.parse((r.aibom.spdx.packages as Pkg[])[0]?.annotations?.[0]?.comment ?? '{}') as Record<string, unknown>;
    const card = annotation(enrich(input({ raw_manifest: fixture('24-hf-card-wav2vec2-sv-ccbync-README.md') }), CTX));
    const cfg = annotation(enrich(input({ raw_manifest: fixture('31-hf-config-codegeex2-auto-map.json') }), CTX));
    const mf = annotation(
      enrich(input({ raw_manifest: 'FROM llama3:8b\nPARAMETER temperature 0.2\nPARAMETER num_ctx 4096\n' }), CTX),
    );
    for (const ai of [card, cfg, mf]) {
      for (const k of Object.keys(ai).filter((x) => x.startsWith('ai:')))
        expect([k, AI_PROFILE.has(k.slice(3))]).toEqual([k, true]);
      expect(['serious', 'high', 'medium', 'low']).toContain(ai['ai:safetyRiskAssessment']);
    }
    expect(card['ai:metric']).toEqual(
      expect.arrayContaining([{ key: 'wer@common_voice', value: '19.145252414798616' }]),
    );
    expect(card['ai:informationAboutTraining']).toMatch(/common_voice/);
    expect(cfg['ai:typeOfModel']).toEqual(['chatglm', 'ChatGLMModel']);
    expect(mf['ai:hyperparameter']).toEqual([
      { key: 'num_ctx', value: '4096' },
      { key: 'temperature', value: '0.2' },
    ]);
  });
  it('a Modelfile FROM another model is lineage with relation unknown (adapter with ADAPTER)', () => {
    expect(enrich(input({ raw_manifest: 'FROM llama3:8b\nSYSTEM be brief\n' }), CTX).aibom.lineage).toMatchObject({
      parents: ['llama3:8b'],
      relation: 'unknown',
    });
    expect(
      enrich(input({ raw_manifest: 'FROM llama3:8b\nADAPTER ./my-lora.gguf\n' }), CTX).aibom.lineage,
    ).toMatchObject({ relation: 'adapter' });
  });
  it('content_hash ignores the clock but follows content', () => {
    const a = enrich(input({ raw_manifest: fixture('24-hf-card-wav2vec2-sv-ccbync-README.md') }), CTX);
    const b = enrich(input({ raw_manifest: fixture('24-hf-card-wav2vec2-sv-ccbync-README.md') }), {
      ...CTX,
      now: '2027-01-01T00:00:00Z',
    });
    const c = enrich(
      input({ raw_manifest: fixture('24-hf-card-wav2vec2-sv-ccbync-README.md').replace('cc-by-nc-4.0', 'mit') }),
      CTX,
    );
    expect(b.aibom.content_hash).toBe(a.aibom.content_hash);
    expect(b.aibom.cyclonedx.serialNumber).toBe(a.aibom.cyclonedx.serialNumber);
    expect(b.aibom.spdx.documentNamespace).toBe(a.aibom.spdx.documentNamespace);
    expect(c.aibom.content_hash).not.toBe(a.aibom.content_hash);
    expect(c.aibom.spdx.documentNamespace).not.toBe(a.aibom.spdx.documentNamespace);
    expect(a.aibom.content_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('determinism', () => {
  it.each(CASES)('%s: same input → deep-equal output', (_l, inp) => {
    expect(enrich(inp, CTX)).toEqual(enrich(JSON.parse(JSON.stringify(inp)) as EnrichmentInput, CTX));
  });
});

describe('validators catch broken documents (the checks are live)', () => {
  const r = enrich(
    input({ name: 'pcuenq/pokemon-lora', raw_manifest: fixture('21-hf-card-pokemon-lora-README.md') }),
    CTX,
  );
  it('schema and semantic checks reject a broken SPDX doc', () => {
    const bad = JSON.parse(JSON.stringify(r.aibom.spdx)) as Record<string, unknown>;
    delete (bad.packages as Array<Record<string, unknown>>)[0]?.name;
    expect(validateSpdx(bad)).toBe(false);
    const bad2 = { ...r.aibom.spdx, documentNamespace: 'not a uri', relationships: [] };
    expect(semanticSpdxProblems(bad2)).toEqual(expect.arrayContaining(['namespace not a URI', 'no DESCRIBES']));
  });
  it('the CycloneDX validator rejects an invalid licence id', async () => {
    const bad = JSON.parse(JSON.stringify(r.aibom.cyclonedx)) as { metadata: { component: Record<string, unknown> } };
    bad.metadata.component.licenses = [{ license: { id: 'llama3' } }];
    expect(await cdxValidator.validate(JSON.stringify(bad))).not.toBeNull();
  });
});
