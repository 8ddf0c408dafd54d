// Model artefacts read as a reviewer reads them: Modelfiles whose quoted values span lines, diffusers indexes that load
// repository modules, the Python a model loader imports, OpenVINO weights, and what notebooks do with pickles
// (docs/enrichment.md "Calibration changes"). Every manifest here is synthetic.
import { analyze } from '../src/index';
import { input } from './helpers';
import { find, ids } from './rules-fixtures';

const notebook = (...cells: string[]): string =>
  JSON.stringify({
    cells: cells.map((source) => ({ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source })),
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3' } },
    nbformat: 4,
    nbformat_minor: 5,
  });
const nb = (...cells: string[]) => ({ asset_type: 'notebook' as const, raw_manifest: notebook(...cells) });

describe('Modelfile values that span lines', () => {
  const tutor = [
    'FROM llama3.1:8b',
    '',
    'SYSTEM """You are a cryptography tutor.',
    '',
    '## Topics',
    '- RSA and its attacks',
    '"""',
    '',
    'PARAMETER temperature 0.3',
    'MESSAGE user "Factor n=15"',
    'MESSAGE assistant "Try the small primes.',
    '',
    'Step 1: 15 / 3 = 5',
    'Step 2: both are prime',
    '',
    'The factors are 3 and 5."',
  ].join('\n');
  it('reads a MESSAGE whose double-quoted text runs over several lines as one value, so the file stays a Modelfile', () => {
    const a = analyze(input({ raw_manifest: tutor }));
    expect(a.parsed.kind).toBe('modelfile');
    expect(a.parsed.modelfile?.from).toBe('llama3.1:8b');
    // read as a card before, it was reported for a missing licence
    expect(a.findings.map((f) => f.rule_id)).not.toContain('R08');
  });
  it('keeps a double-quoted multi-line TEMPLATE as the chat template', () => {
    const a = analyze(
      input({
        raw_manifest:
          'FROM qwen2.5:7b\nTEMPLATE "<|im_start|>system\n{{ .System }}<|im_end|>\n"\nPARAMETER num_ctx 4096',
      }),
    );
    expect(a.parsed.chat_template).toBe('<|im_start|>system\n{{ .System }}<|im_end|>\n');
  });
});

describe('diffusers indexes that name repository modules', () => {
  const index = (cls: unknown, unet: [string, string]) =>
    JSON.stringify({ _class_name: cls, _diffusers_version: '0.27.0', unet, vae: ['diffusers', 'AutoencoderKL'] });
  it('R05: a pipeline given as [module, class] and a component from a non-library module are repository code', () => {
    const f = find({ raw_manifest: index(['pipeline_edit', 'EditPipeline'], ['edit_unet', 'EditUNet']) }, 'R05')[0];
    expect(f?.evidence).toMatchObject({
      custom_pipeline: 'pipeline_edit.EditPipeline',
      custom_components: ['edit_unet.EditUNet'],
    });
  });
  it('stock components of a shipped pipeline load no repository code', () => {
    expect(
      ids({ raw_manifest: index('StableDiffusionPipeline', ['diffusers', 'UNet2DConditionModel']) }),
    ).not.toContain('R05');
  });
});

describe('the Python a model loader imports', () => {
  it('R05: model-code modules and root modules of a Hub-style repository count as remote code', () => {
    const hub = find(
      { metadata: { files: ['config.json', 'modeling_x.py', 'helpers.py', 'model.safetensors'] } },
      'R05',
    );
    expect(hub[0]?.evidence.python_files).toEqual(['modeling_x.py', 'helpers.py']);
    const nested = find({ metadata: { files: ['src/modeling_y.py', 'src/pipeline_y.py'] } }, 'R05');
    expect(nested[0]?.evidence.python_files).toEqual(['src/modeling_y.py', 'src/pipeline_y.py']);
  });
  it("an application's own scripts next to its pickled model are not loader code", () => {
    expect(
      ids({ metadata: { files: ['app.py', 'train_model.py', 'model.pkl', 'templates/index.html'] } }),
    ).not.toContain('R05');
  });
});

describe('OpenVINO weights', () => {
  it('R01: a .bin next to its .xml is an OpenVINO IR (raw tensors), not a pickle', () => {
    const ir = analyze(
      input({ metadata: { files: ['openvino/model_int8.bin', 'openvino/model_int8.xml', 'model.onnx'] } }),
    );
    expect(ir.findings.map((f) => f.rule_id)).not.toContain('R01');
    expect(ids({ metadata: { files: ['pytorch_model.bin', 'config.json'] } })).toContain('R01');
  });
});

describe('commented-out notebook code', () => {
  it('R25: a public tunnel to a local app (cloudflared, ngrok) is public exposure, like a share link', () => {
    const nb = (src: string): string =>
      JSON.stringify({ nbformat: 4, metadata: {}, cells: [{ cell_type: 'code', source: [src] }] });
    const r25 = (src: string) => find({ asset_type: 'notebook', raw_manifest: nb(src) }, 'R25');
    expect(r25("subprocess.Popen(['cloudflared', 'tunnel', '--url', 'http://localhost:5000'])")[0]).toMatchObject({
      title: 'Public tunnel',
      severity: 'medium',
    });
    expect(r25('!ngrok http 7860')[0]?.title).toBe('Public tunnel');
    expect(r25('from pyngrok import ngrok\nurl = ngrok.connect(7860)')[0]?.title).toBe('Public tunnel');
    // installing the tool, or a commented-out tunnel, publishes nothing
    expect(r25('!pip install pyngrok==7.1.6\n# !ngrok http 7860')).toHaveLength(0);
  });
  it('R25: a package or script downloaded over plain HTTP is high; over https, or not code, it is not', () => {
    const nb = (src: string): string =>
      JSON.stringify({ nbformat: 4, metadata: {}, cells: [{ cell_type: 'code', source: [src] }] });
    const r25 = (src: string) =>
      find({ asset_type: 'notebook', raw_manifest: nb(src) }, 'R25').filter((f) => f.title.includes('plain HTTP'));
    expect(r25('!wget http://mirror.example.net/pool/libfoo_2.5_amd64.deb\n!dpkg -i *.deb')[0]).toMatchObject({
      severity: 'high',
      evidence: { urls: ['http://mirror.example.net/pool/libfoo_2.5_amd64.deb'] },
    });
    const docker = 'FROM ubuntu:22.04\nRUN curl -fsSL http://get.example.org/install.sh -o i.sh && sh i.sh\n';
    expect(find({ asset_type: 'container_image', raw_manifest: docker }, 'R25')[0]?.severity).toBe('high');
    expect(r25('!wget https://mirror.example.net/pool/libfoo_2.5_amd64.deb')).toHaveLength(0);
    expect(r25('!wget http://example.net/data/train.csv')).toHaveLength(0);
    expect(r25('!wget http://localhost:8000/tool.sh')).toHaveLength(0);
  });
  it('R22/R25: a commented install or share link does not run', () => {
    const commented = ids(nb('# !pip install langchain huggingface_hub\n# demo.launch(share=True)\nimport os'));
    expect(commented).not.toContain('R22');
    expect(commented).not.toContain('R25');
    const live = ids(nb('!pip install langchain huggingface_hub\nimport gradio as gr\ndemo.launch(share=True)'));
    expect(live).toEqual(expect.arrayContaining(['R22', 'R25']));
  });
});

describe('what a notebook does with pickles', () => {
  it('R01: downloading pickle-format weights is medium, unpickling its own files is low', () => {
    const fetched = find(nb('!wget https://example.org/models/v1-5-pruned.ckpt -O model.ckpt'), 'R01');
    expect(fetched.map((f) => f.severity)).toEqual(['medium']);
    expect(fetched[0]?.evidence.downloads).toEqual(['v1-5-pruned.ckpt', 'model.ckpt']);
    const local = find(nb("state = torch.load('./output/checkpoint_50000')['state_dict']"), 'R01');
    expect(local.map((f) => f.severity)).toEqual(['low']);
  });
  it('torch.load with weights_only=True and safetensors downloads are not pickle findings', () => {
    expect(
      ids(nb('sd = torch.load(path, weights_only=True)\n!wget https://example.org/m/model.safetensors')),
    ).not.toContain('R01');
  });
});

describe('licence fields of package metadata nobody publishes', () => {
  const pkg = (extra: object) => ({
    asset_type: 'package' as const,
    raw_manifest: JSON.stringify({ name: 'docs-server', version: '0.1.0', dependencies: { zod: '3.23.8' }, ...extra }),
  });
  it('R08: an npm package marked private needs no licence field; a publishable one does', () => {
    expect(ids(pkg({ private: true }))).not.toContain('R08');
    expect(ids(pkg({}))).toContain('R08');
  });
  it('R08: a pyproject that is a uv workspace root or marked Do Not Upload needs no licence field', () => {
    const toml = (body: string) => ({
      asset_type: 'package' as const,
      raw_manifest: `[project]\nname = "ws"\nversion = "0.1.0"\ndependencies = ["httpx==0.28.1"]\n${body}`,
    });
    expect(ids(toml('[tool.uv.workspace]\nmembers = ["lib/*"]\n'))).not.toContain('R08');
    expect(ids(toml('classifiers = ["Private :: Do Not Upload"]\n'))).not.toContain('R08');
    expect(
      ids(
        toml(
          '[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n[tool.uv.workspace]\nmembers = ["lib/*"]\n',
        ),
      ),
    ).toContain('R08');
  });
});

describe('artefacts named as attack payloads', () => {
  it('R01/R05: pickles and loader code named for an attack are critical; ordinary names stay high', () => {
    const listing = analyze(input({ metadata: { files: ['exploit.ckpt', 'dns_pwn.py', 'pwn_pipeline.py'] } }));
    expect(listing.findings.filter((f) => ['R01', 'R05'].includes(f.rule_id)).map((f) => f.severity)).toEqual([
      'critical',
      'critical',
    ]);
    const index = JSON.stringify({ _class_name: 'BackdoorPipeline', _diffusers_version: '0.27.0' });
    expect(find({ raw_manifest: index }, 'R05').map((f) => f.severity)).toEqual(['critical']);
    expect(find({ metadata: { files: ['pytorch_model.bin', 'modeling_evolution.py'] } }, 'R01')[0]?.severity).toBe(
      'high',
    );
  });
});
