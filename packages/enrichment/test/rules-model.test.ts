import { ATLAS_TECHNIQUES } from '../src/atlas';
import advisories from '../src/data/advisories.osv.json';
import { analyze, RULES } from '../src/index';
import { fixture, input } from './helpers';
import { find, ids } from './rules-fixtures';

describe('rule table', () => {
  it('R05: trust_remote_code on a vendor model transformers implements is medium; on custom code high', () => {
    const nb = (src: string): string =>
      JSON.stringify({ nbformat: 4, metadata: {}, cells: [{ cell_type: 'code', source: [src] }] });
    const r05 = (src: string) => find({ asset_type: 'notebook', raw_manifest: nb(src) }, 'R05')[0];
    const native =
      'model_name = "meta-llama/Llama-3.2-1B-Instruct"\nmodel = AutoModelForCausalLM.from_pretrained(\n    model_name,\n    trust_remote_code=True\n)\n';
    expect(r05(native)).toMatchObject({
      severity: 'medium',
      evidence: { models: ['meta-llama/Llama-3.2-1B-Instruct'] },
    });
    expect(r05('m = AutoModel.from_pretrained("THUDM/chatglm-6b-int4", trust_remote_code=True)')?.severity).toBe(
      'high',
    );
    expect(r05('m = AutoModel.from_pretrained("someone/Llama-3-8B-custom", trust_remote_code=True)')?.severity).toBe(
      'high',
    );
    expect(r05(`${native}p = pipeline("text-generation", model="x/y", trust_remote_code=True)\n`)?.severity).toBe(
      'high',
    );
  });
  it('R05: model code in a project repository is medium; at the root of a Hub model repository high', () => {
    const project = ['README.md', 'train.py', 'model/modeling_foo.py', 'model/configuration_foo.py'].join('\n');
    expect(find({ asset_type: 'model', name: 'someone/foo', raw_manifest: project }, 'R05')[0]).toMatchObject({
      severity: 'medium',
      evidence: { python_files: ['model/modeling_foo.py', 'model/configuration_foo.py'] },
    });
    const hub = ['README.md', 'config.json', 'modeling_foo.py', 'model.safetensors'].join('\n');
    expect(find({ asset_type: 'model', name: 'someone/foo', raw_manifest: hub }, 'R05')[0]?.severity).toBe('high');
  });
  it('R01: pickles a repository listing trains itself are low; without the trainer they stay high', () => {
    const listing = (extra: string[]) =>
      ['README.md', 'app.py', 'features.py', 'model.pkl', 'requirements.txt', 'templates/index.html', ...extra].join(
        '\n',
      );
    const own = find(
      { asset_type: 'model', name: 'someone/url-classifier', raw_manifest: listing(['src/train_model.py']) },
      'R01',
    );
    expect(own[0]).toMatchObject({ severity: 'low', evidence: { trained_by: 'src/train_model.py' } });
    const bare = find({ asset_type: 'model', name: 'someone/url-classifier', raw_manifest: listing([]) }, 'R01');
    expect(bare[0]?.severity).toBe('high');
  });
  it('has R00–R27 plus extras, each documented with known ATLAS ids', () => {
    const known = ATLAS_TECHNIQUES;
    for (let i = 0; i <= 27; i++) expect(RULES.map((r) => r.id)).toContain(`R${String(i).padStart(2, '0')}`);
    expect(RULES.length).toBeGreaterThanOrEqual(28);
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
    for (const r of RULES) {
      expect(r.title && r.rationale && r.remediation).toBeTruthy();
      for (const t of r.attack_techniques) expect(known.has(t)).toBe(true);
    }
  });
  it('ships advisories with source and verification for every entry', () => {
    expect(advisories._source).toMatch(/research list of AI CVEs \(docs\/enrichment\.md/);
    expect(advisories.records).toHaveLength(33);
    for (const a of advisories.records)
      expect([
        a.database_specific.source.startsWith('http'),
        ['primary', 'secondary'].includes(a.database_specific.verification),
      ]).toEqual([true, true]);
  });
});

describe('serialization and remote code', () => {
  it('R01: pickle-only model (sklearn card with model_file linreg.pkl; codegeex2 .bin index)', () => {
    expect(
      find({ raw_manifest: fixture('23-hf-card-sklearn-mpg-pickle-README.md') }, 'R01')[0]?.evidence.files,
    ).toEqual(['linreg.pkl']);
    const f = find({ raw_manifest: fixture('33-hf-pytorch-bin-index-codegeex2.json') }, 'R01')[0];
    expect(f?.evidence.count).toBe(7);
    expect(f?.capabilities).toContain('code_execution_on_load');
  });
  it('R01 is low (not high) when a safetensors copy exists; R00 records safetensors-only weights', () => {
    // corpus c040: a loader that picks the pickle still runs it, so it stays a low finding
    const both = analyze(input({ metadata: { files: ['pytorch_model.bin', 'model.safetensors'] } }));
    expect(both.findings.filter((f) => f.rule_id === 'R01').map((f) => f.severity)).toEqual(['low']);
    expect(ids({ metadata: { files: ['model.safetensors'] } })).toContain('R00');
  });
  it('R02/R03: dangerous pickle imports from metadata', () => {
    const r = ids({
      metadata: {
        files: ['model.pkl'],
        pickle_imports: ['posix.system', 'builtins.eval', 'webbrowser.open', 'collections.OrderedDict'],
      },
    });
    expect(r).toEqual(expect.arrayContaining(['R01', 'R02', 'R03']));
    expect(
      ids({ metadata: { pickle_imports: ['collections.OrderedDict', 'torch._utils._rebuild_tensor_v2'] } }),
    ).not.toContain('R02');
  });
  it('R04: Keras Lambda layer', () => {
    const cfg = {
      class_name: 'Sequential',
      config: { layers: [{ class_name: 'Lambda', config: { function: 'abc' }, module: 'keras.layers' }] },
    };
    expect(ids({ raw_manifest: JSON.stringify(cfg) })).toContain('R04');
  });
  it('R05: auto_map in the codegeex2 config; trust_remote_code in a card', () => {
    const f = find({ raw_manifest: fixture('31-hf-config-codegeex2-auto-map.json') }, 'R05')[0];
    expect(f?.confidence).toBe(1);
    expect(Object.keys(f?.evidence.auto_map as object)).toContain('AutoModel');
    const c = find({ raw_manifest: fixture('32-hf-card-codegeex2-README.md') }, 'R05')[0];
    // the card's own loading code passes trust_remote_code=True: as certain as an auto_map (docs/enrichment.md R05)
    expect(c?.confidence).toBe(1);
  });
  it('R06: malicious GGUF chat template', () => {
    const t =
      "{% for c in ''.__class__.__mro__[1].__subclasses__() %}{{ c.__init__.__globals__['os'].popen('id') }}{% endfor %}";
    expect(ids({ metadata: { gguf: { 'tokenizer.chat_template': t } } })).toContain('R06');
    expect(ids({ metadata: { chat_template: '{% for m in messages %}{{ m.content }}{% endfor %}' } })).not.toContain(
      'R06',
    );
  });
  it('R07: native custom ops in an onnxruntime-genai config', () => {
    expect(
      ids({ raw_manifest: JSON.stringify({ model: { decoder: {}, custom_ops_library: 'libcustom.so' } }) }),
    ).toContain('R07');
  });
});

describe('licence rules', () => {
  it('R08 missing licence (sklearn card); not for a config.json', () => {
    expect(ids({ raw_manifest: fixture('23-hf-card-sklearn-mpg-pickle-README.md') })).toContain('R08');
    expect(ids({ raw_manifest: fixture('31-hf-config-codegeex2-auto-map.json') })).not.toContain('R08');
  });
  it('R09 non-commercial: cc-by-nc-4.0, commercial: no, research-only licence text', () => {
    expect(find({ raw_manifest: fixture('24-hf-card-wav2vec2-sv-ccbync-README.md') }, 'R09')[0]?.evidence.license).toBe(
      'cc-by-nc-4.0',
    );
    expect(find({ raw_manifest: fixture('22-hf-card-opt-13b-erebus-README.md') }, 'R09')[0]?.evidence.path).toBe(
      'commercial',
    );
    expect(ids({ raw_manifest: fixture('34-hf-model-license-codegeex2.txt') })).toContain('R09');
  });
  it('R10 restricted licences (openrail, other) ', () => {
    expect(ids({ raw_manifest: fixture('21-hf-card-pokemon-lora-README.md') })).toContain('R10');
    expect(ids({ raw_manifest: fixture('25-hf-card-dreamlike-photoreal-README.md') })).toContain('R10');
    expect(ids({ raw_manifest: fixture('27-hf-card-intel-bart-int8-onnx-README.md') })).not.toContain('R10');
  });
  it('R10 for a custom licence text with use restrictions (ChatGLM2 MODEL_LICENSE); not for MIT text', () => {
    expect(find({ raw_manifest: fixture('14-hf-model-license-chatglm2.txt') }, 'R10')[0]).toMatchObject({
      confidence: 0.6,
      evidence: { path: 'license_text' },
    });
    const mit =
      'MIT License\n\nPermission is hereby granted, free of charge, to any person obtaining a copy of this software, to deal in the Software without restriction.\n';
    expect(ids({ raw_manifest: mit })).not.toContain('R10');
  });
  it('R11 licence conflicts with a Llama base model', () => {
    const raw = '---\nlicense: apache-2.0\nbase_model: meta-llama/Llama-2-7b-hf\n---\n# x';
    expect(ids({ raw_manifest: raw })).toContain('R11');
  });
  it('R28 invalid SPDX ids; valid expressions pass', () => {
    expect(
      ids({
        asset_type: 'package',
        raw_manifest: JSON.stringify({ name: 'x-lib', version: '1.0.0', license: 'Apache 2 or whatever' }),
      }),
    ).toContain('R28');
    expect(
      ids({
        asset_type: 'package',
        raw_manifest: JSON.stringify({ name: 'x-lib', version: '1.0.0', license: 'mit OR apache-2.0' }),
      }),
    ).not.toContain('R28');
    expect(
      ids({ asset_type: 'package', raw_manifest: JSON.stringify({ name: 'x-lib', version: '1.0.0', license: 'MIT' }) }),
    ).toContain('R00');
  });
});
