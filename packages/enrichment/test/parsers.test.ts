import { analyze } from '../src/index';
import { parseManifest } from '../src/parse';
import { fixture, input } from './helpers';

describe('Hugging Face model cards', () => {
  it('reads lineage from prose when the front matter declares none', () => {
    const card = (body: string, fm = 'license: mit') =>
      parseManifest(input({ raw_manifest: `---\n${fm}\n---\n${body}\n` }));
    expect(card('This model is fine-tuned from [Qwen/Qwen-7B-Chat](x) on Cantonese.')).toMatchObject({
      base_models: ['Qwen/Qwen-7B-Chat'],
      base_model_relation: 'finetune',
    });
    expect(card('A quantized version of https://huggingface.co/meta-llama/Llama-3.1-8B.')).toMatchObject({
      base_models: ['meta-llama/Llama-3.1-8B'],
      base_model_relation: 'quantized',
    });
    expect(card('Distilled from deepseek-ai/DeepSeek-R1.').base_models).toEqual(['deepseek-ai/DeepSeek-R1']);
    // a bare family name is not an id; a declared base_model wins
    expect(card('This model is based on Mixtral-8x7b').base_models).toEqual([]);
    expect(card('Based on other/model', 'base_model: org/declared').base_models).toEqual(['org/declared']);
  });
  it('reads front matter with a blank line before --- (pokemon LoRA)', () => {
    const p = parseManifest(input({ raw_manifest: fixture('21-hf-card-pokemon-lora-README.md') }));
    expect(p.kind).toBe('hf_model_card');
    expect(p.licenses).toEqual(['creativeml-openrail-m']);
    expect(p.base_models).toEqual(['runwayml/stable-diffusion-v1-5']);
    expect(p.tags).toContain('diffusers');
    expect(p.body).toContain('LoRA text2image');
  });
  it('reads model-index, datasets and licence (wav2vec2)', () => {
    const p = parseManifest(input({ raw_manifest: fixture('24-hf-card-wav2vec2-sv-ccbync-README.md') }));
    expect(p.licenses).toEqual(['cc-by-nc-4.0']);
    expect(p.datasets).toEqual(['common_voice', 'NST Swedish ASR Database']);
    expect(Array.isArray(p.model_index)).toBe(true);
  });
  it('handles a card without front matter and takes the licence from prose (SkyCode)', () => {
    const p = parseManifest(input({ raw_manifest: fixture('26-hf-card-skycode-no-frontmatter-README.md') }));
    expect(p.kind).toBe('hf_model_card');
    expect(p.card).toBeNull();
    expect(p.licenses).toEqual(['MIT']);
    expect(p.license_text).toBe('prose');
  });
  it('reads free-form keys (commercial: no, model_file)', () => {
    expect(
      parseManifest(input({ raw_manifest: fixture('22-hf-card-opt-13b-erebus-README.md') })).card?.commercial,
    ).toBe('no');
    expect(parseManifest(input({ raw_manifest: fixture('23-hf-card-sklearn-mpg-pickle-README.md') })).files).toEqual([
      { path: 'linreg.pkl' },
    ]);
  });
});

describe('transformers config, weight index and file listings', () => {
  it('reads config.json with auto_map (codegeex2)', () => {
    const p = parseManifest(input({ raw_manifest: fixture('31-hf-config-codegeex2-auto-map.json') }));
    expect(p.kind).toBe('hf_config');
    expect(p.config).toMatchObject({
      architectures: ['ChatGLMModel'],
      model_type: 'chatglm',
      name_or_path: 'THUDM/codegeex2-6b',
      transformers_version: '4.30.2',
    });
    expect(Object.keys(p.config?.auto_map ?? {})).toContain('AutoModel');
  });
  it('reads distinct weight files from a pytorch_model.bin.index.json', () => {
    const p = parseManifest(input({ raw_manifest: fixture('33-hf-pytorch-bin-index-codegeex2.json') }));
    expect(p.kind).toBe('weight_index');
    expect(p.files.map((f) => f.path)).toEqual(
      Array.from({ length: 7 }, (_, i) => `pytorch_model-0000${i + 1}-of-00007.bin`),
    );
  });
  it('reads file listings from metadata (HF siblings shape with lfs sha256) and from text', () => {
    const sha = 'a'.repeat(64);
    const p = parseManifest(
      input({
        metadata: {
          siblings: [{ rfilename: 'model.safetensors', lfs: { sha256: sha } }, { rfilename: 'config.json' }],
        },
      }),
    );
    expect(p.files).toEqual([{ path: 'model.safetensors', sha256: sha }, { path: 'config.json' }]);
    const t = parseManifest(input({ raw_manifest: 'model.gguf\nREADME.md\n' }));
    expect(t.kind).toBe('file_listing');
    expect(t.files.map((f) => f.path)).toEqual(['model.gguf', 'README.md']);
  });
});

describe('MCP manifests', () => {
  it('reads a legacy registry server.json (snake_case)', () => {
    const p = parseManifest(
      input({ asset_type: 'mcp_server', raw_manifest: fixture('06-mcp-registry-legacy-server.json') }),
    );
    expect(p.kind).toBe('mcp_server_json');
    expect(p.name).toBe('io.github.<owner>/<server-name>');
    expect(p.servers[0]).toMatchObject({ registry: 'npm', version: '0.2.23', args: expect.arrayContaining(['-s']) });
    expect(Object.keys(p.servers[0]?.env ?? {})).toEqual(['API_KEY']);
    expect(p.servers[1]?.command).toBe('docker');
  });
  it('reads a current registry server.json', () => {
    const p = parseManifest(
      input({
        asset_type: 'mcp_server',
        raw_manifest: JSON.stringify({
          $schema: 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json',
          name: 'io.github.acme/weather',
          version: '1.2.0',
          repository: { url: 'https://github.com/acme/weather', source: 'github' },
          packages: [
            {
              registryType: 'npm',
              identifier: '@acme/weather-mcp',
              version: '1.2.0',
              transport: { type: 'stdio' },
              environmentVariables: [{ name: 'WEATHER_API_KEY', isSecret: true }],
            },
          ],
          remotes: [{ type: 'sse', url: 'https://weather.acme.dev/sse' }],
        }),
      }),
    );
    expect(p.servers).toHaveLength(2);
    expect(p.servers[0]).toMatchObject({ identifier: '@acme/weather-mcp', secretEnv: ['WEATHER_API_KEY'] });
    expect(p.servers[1]).toMatchObject({ transport: 'sse', url: 'https://weather.acme.dev/sse' });
    expect(p.dependencies).toEqual([
      { ecosystem: 'npm', name: '@acme/weather-mcp', spec: '1.2.0', path: 'packages[0]' },
    ]);
  });
  it('reads mcpServers client config entries (.mcp.json and command/args/env)', () => {
    const p = parseManifest(input({ asset_type: 'agent', raw_manifest: fixture('05-mcp-servers-repo-dot-mcp.json') }));
    expect(p.servers[0]).toMatchObject({
      name: 'mcp-docs',
      url: 'https://modelcontextprotocol.io/mcp',
      transport: 'http',
    });
    const q = parseManifest(
      input({
        asset_type: 'agent',
        raw_manifest: JSON.stringify({
          mcpServers: {
            fs: {
              command: 'npx',
              args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
              env: { DEBUG: '1' },
            },
          },
        }),
      }),
    );
    expect(q.servers[0]).toMatchObject({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
      env: { DEBUG: '1' },
    });
  });
  it('reads a tools/list snapshot', () => {
    const p = parseManifest(
      input({
        asset_type: 'mcp_server',
        raw_manifest: JSON.stringify({
          result: {
            tools: [
              {
                name: 'add',
                description: 'Adds',
                inputSchema: { type: 'object' },
                annotations: { readOnlyHint: true },
              },
            ],
          },
        }),
      }),
    );
    expect(p.kind).toBe('mcp_tools');
    expect(p.tools).toEqual([
      { name: 'add', description: 'Adds', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    ]);
  });
});

describe('package manifests', () => {
  it('reads npm package.json', () => {
    const p = parseManifest(
      input({ asset_type: 'mcp_server', raw_manifest: fixture('01-mcp-server-filesystem-package.json') }),
    );
    expect(p).toMatchObject({
      kind: 'npm_package',
      name: '@modelcontextprotocol/server-filesystem',
      version: '0.6.3',
      mcp_name: 'io.github.modelcontextprotocol/server-filesystem',
    });
    expect(p.dependencies.map((d) => d.name)).toEqual(['@modelcontextprotocol/sdk', 'diff', 'glob', 'minimatch']);
  });
  it('reads pyproject.toml (starts with [project], must not be mistaken for JSON)', () => {
    const p = parseManifest(
      input({ asset_type: 'mcp_server', raw_manifest: fixture('03-mcp-server-git-pyproject.toml') }),
    );
    expect(p.parse_errors).toEqual([]);
    expect(p).toMatchObject({ kind: 'pyproject', name: 'mcp-server-git', version: '0.6.2', licenses: ['MIT'] });
    expect(p.dependencies.map((d) => `${d.name}${d.spec}`)).toEqual([
      'click>=8.1.7',
      'gitpython>=3.1.50',
      'mcp>=1.0.0',
      'pydantic>=2.0.0',
      // [dependency-groups] dev (PEP 735)
      'pyright>=1.1.407',
      'ruff>=0.7.3',
      'pytest>=8.0.0',
    ]);
  });
  it('reads requirements.txt', () => {
    const p = parseManifest(
      input({
        asset_type: 'package',
        raw_manifest: '# deps\nlangchain==0.0.100\ntransformers>=4.30,<4.31\nnumpy\n-r other.txt\n',
      }),
    );
    expect(p.kind).toBe('requirements');
    expect(p.dependencies.map((d) => [d.name, d.spec])).toEqual([
      ['langchain', '==0.0.100'],
      ['transformers', '>=4.30,<4.31'],
      ['numpy', ''],
    ]);
  });
  it('reads an Ollama Modelfile (lower-case directives, triple-quoted blocks)', () => {
    const p = parseManifest(
      input({
        raw_manifest:
          'from llama3:latest\nparameter temperature 0.2\nSYSTEM """\nYou are Mario.\n"""\nTEMPLATE """{{ .Prompt }}"""\n',
      }),
    );
    expect(p.kind).toBe('modelfile');
    expect(p.modelfile).toMatchObject({
      from: 'llama3:latest',
      system: 'You are Mario.',
      template: '{{ .Prompt }}',
      parameters: { temperature: '0.2' },
    });
  });
  it('reads a YAML agent configuration', () => {
    const p = parseManifest(
      input({
        asset_type: 'agent',
        raw_manifest: 'name: helper\nmodel: gpt-4o\ntools:\n  - name: run_shell\n    description: Run shell commands\n',
      }),
    );
    expect(p.format).toBe('yaml');
    expect(p.kind).toBe('agent_config');
    expect(p.tools.map((t) => t.name)).toEqual(['run_shell']);
  });
});

describe('more manifest kinds', () => {
  it('reads an MCPB/DXT manifest.json (server.mcp_config + tools)', () => {
    const p = parseManifest(
      input({
        asset_type: 'mcp_server',
        raw_manifest: JSON.stringify({
          dxt_version: '0.1',
          name: 'notes',
          version: '0.3.0',
          license: 'MIT',
          author: { name: 'Ann' },
          server: {
            type: 'node',
            entry_point: 'server/index.js',
            mcp_config: {
              command: 'node',
              args: ['${__dirname}/server/index.js'],
              env: { NOTES_DIR: '${user_config.dir}' },
            },
          },
          tools: [{ name: 'list_notes', description: 'Lists notes' }],
        }),
      }),
    );
    expect(p).toMatchObject({
      kind: 'mcpb_manifest',
      name: 'notes',
      version: '0.3.0',
      licenses: ['MIT'],
      authors: ['Ann'],
    });
    expect(p.servers[0]).toMatchObject({
      command: 'node',
      env: { NOTES_DIR: '${user_config.dir}' },
      transport: 'stdio',
    });
    expect(p.tools.map((t) => t.name)).toEqual(['list_notes']);
  });
  it('reads a Poetry pyproject.toml', () => {
    const p = parseManifest(
      input({
        asset_type: 'package',
        raw_manifest:
          '[tool.poetry]\nname = "agent-kit"\nversion = "0.1.0"\nlicense = "Apache-2.0"\n[tool.poetry.dependencies]\npython = "^3.10"\nlangchain = "0.0.100"\n',
      }),
    );
    expect(p).toMatchObject({ kind: 'pyproject', name: 'agent-kit', version: '0.1.0', licenses: ['Apache-2.0'] });
    expect(p.dependencies).toEqual([
      { ecosystem: 'pypi', name: 'langchain', spec: '0.0.100', path: 'tool.poetry.dependencies.langchain' },
    ]);
  });
  it('reads a Modelfile FROM a local GGUF with an ADAPTER and a one-line LICENSE', () => {
    const p = parseManifest(
      input({
        raw_manifest:
          'FROM ./models/llama-3-8b.Q4_K_M.gguf\nADAPTER ./lora.gguf\nPARAMETER num_ctx 4096\nLICENSE """Apache 2.0"""\n',
      }),
    );
    expect(p).toMatchObject({ kind: 'modelfile', licenses: ['Apache 2.0'], base_models: [] });
    expect(p.files.map((f) => f.path)).toEqual(['./models/llama-3-8b.Q4_K_M.gguf', './lora.gguf']);
    expect(p.modelfile?.parameters).toEqual({ num_ctx: '4096' });
  });
  it('reads Keras configs and tokenizer_config.json chat templates', () => {
    expect(
      parseManifest(input({ raw_manifest: JSON.stringify({ class_name: 'Functional', config: { layers: [] } }) })).kind,
    ).toBe('keras_config');
    const t = parseManifest(
      input({ raw_manifest: JSON.stringify({ chat_template: '{{ messages }}', eos_token: '</s>' }) }),
    );
    expect([t.kind, t.chat_template]).toEqual(['tokenizer_config', '{{ messages }}']);
  });
  it('falls back to generic JSON, YAML, TOML and text', () => {
    expect(
      parseManifest(input({ asset_type: 'application', raw_manifest: '{"endpoint":"https://x.dev","license":"MIT"}' })),
    ).toMatchObject({ kind: 'json', format: 'json', licenses: ['MIT'] });
    expect(
      parseManifest(input({ asset_type: 'application', raw_manifest: 'endpoint: https://x.dev\nregion: eu\n' })),
    ).toMatchObject({ kind: 'yaml', format: 'yaml' });
    expect(
      parseManifest(input({ asset_type: 'application', raw_manifest: '[package]\nname = "x"\nversion = "1.2.3"\n' })),
    ).toMatchObject({ kind: 'toml', format: 'toml', name: 'x', version: '1.2.3' });
    expect(
      parseManifest(input({ asset_type: 'application', raw_manifest: 'A hosted chat assistant for support teams.' })),
    ).toMatchObject({ kind: 'text', format: 'text' });
  });
});

describe('robustness', () => {
  it.each([
    ['broken JSON', '{"name": "x", '],
    ['broken TOML', '[project]\nname = "x\n'],
    ['broken front matter', '---\nlicense: [unclosed\n---\nbody'],
  ])('%s yields manifest_unparseable, never a throw', (_l, raw) => {
    const a = analyze(input({ raw_manifest: raw }));
    expect(a.findings.map((f) => f.rule_id)).toContain('manifest_unparseable');
  });
  it('accepts empty and odd input', () => {
    expect(() =>
      analyze(input({ raw_manifest: null, metadata: { files: 'nope', tools: 5 } as Record<string, unknown> })),
    ).not.toThrow();
    expect(() => analyze(input({ raw_manifest: '\u0000\u0001 garbage' }))).not.toThrow();
    expect(() => analyze(input({ raw_manifest: '[1,2,{"a":null}]' }))).not.toThrow();
  });
});
