// The second calibration round: each change to the engine checked on a manifest written for the test
// (none of them is in corpus/; the corpus case that motivated the change is named in the title).
import { analyze, enrich } from '../src/index';
import type { FindingDraft } from '../src/types';
import { CTX, input } from './helpers';

const findings = (raw: string, over: Parameters<typeof input>[0] = {}): FindingDraft[] =>
  analyze(input({ raw_manifest: raw, ...over })).findings;
const one = (fs: FindingDraft[], id: string): FindingDraft | undefined => fs.find((f) => f.rule_id === id);

describe('supply chain: launchers and version ranges', () => {
  it('an unpinned npx/uvx launcher is low, a pinned one is no finding (c007, c089)', () => {
    const cfg = (pkg: string): string =>
      JSON.stringify({ mcpServers: { notes: { command: 'npx', args: ['-y', pkg] } } });
    const loose = findings(cfg('@acme/notes-mcp'), { asset_type: 'mcp_server' });
    expect(one(loose, 'R21')).toMatchObject({ severity: 'low' });
    expect(
      enrich(input({ asset_type: 'mcp_server', raw_manifest: cfg('@acme/notes-mcp@latest') }), CTX)
        .intrinsic_risk_severity,
    ).toBe('low');
    expect(one(findings(cfg('@acme/notes-mcp@1.4.2'), { asset_type: 'mcp_server' }), 'R21')).toBeUndefined();
    // the same launcher given as a full path
    const full = JSON.stringify({
      mcpServers: { notes: { command: 'C:\\Program Files\\nodejs\\npx.cmd', args: ['@acme/notes-mcp'] } },
    });
    expect(one(findings(full, { asset_type: 'mcp_server' }), 'R21')?.evidence).toMatchObject({
      package: '@acme/notes-mcp',
    });
  });

  it('a firewall/router administration server is infrastructure control (c088)', () => {
    const cfg = JSON.stringify({ servers: { edge: { command: 'uvx', args: ['pfsense-mcp==0.3.1'] } } });
    expect(one(findings(cfg, { asset_type: 'mcp_server' }), 'R17')).toMatchObject({
      confidence: 0.6,
      title: 'Infrastructure control (container, cluster, remote shell or network device)',
    });
  });

  it('ranges: any in requirements and public npm packages; none for private npm roots; only bare names in Python library metadata (c055, c056, c076)', () => {
    const npm = (priv: boolean): string =>
      JSON.stringify({
        name: 'tools-root',
        version: '1.0.0',
        private: priv,
        license: 'MIT',
        dependencies: { lodash: '^4.17.21' },
      });
    expect(one(findings(npm(false), { asset_type: 'package' }), 'R22')).toBeDefined();
    expect(one(findings(npm(true), { asset_type: 'package' }), 'R22')).toBeUndefined();
    // a private application or server is still installed from its own manifest where it is deployed
    expect(one(findings(npm(true), { asset_type: 'application' }), 'R22')).toBeDefined();
    expect(one(findings(npm(true), { asset_type: 'mcp_server' }), 'R22')).toBeDefined();
    const pyproject = (deps: string[]): string =>
      `[project]\nname = "lib"\nversion = "1.0"\nlicense = "MIT"\ndependencies = [${deps.map((d) => JSON.stringify(d)).join(', ')}]\n`;
    expect(one(findings(pyproject(['httpx>=0.27', 'anyio>=4,<5']), { asset_type: 'package' }), 'R22')).toBeUndefined();
    // the same metadata for an MCP server run as resolved at launch (uvx): its ranges count
    expect(one(findings(pyproject(['httpx>=0.27', 'anyio>=4,<5']), { asset_type: 'mcp_server' }), 'R22')).toBeDefined();
    expect(
      one(findings(pyproject(['httpx>=0.27', 'numpy']), { asset_type: 'package' }), 'R22')?.evidence,
    ).toMatchObject({
      dependencies: ['numpy*'],
    });
    const cfg =
      '[metadata]\nname = lib\nversion = 1.0\nlicense = MIT\n\n[options]\ninstall_requires =\n    numpy\n    scipy>=1.10\n';
    expect(one(findings(cfg, { asset_type: 'package' }), 'R22')?.evidence).toMatchObject({ count: 1 });
    expect(one(findings('requests>=2.31\n', { asset_type: 'package' }), 'R22')).toBeDefined();
    // a library that bounds most of what it declares and leaves one stable tool bare follows packaging practice
    const bounded = ['typer>=0.3,<1', 'tqdm>=4.38,<5', 'requests>=2.13,<3', 'pydantic>=1.7,<3', 'setuptools'];
    expect(one(findings(pyproject(bounded), { asset_type: 'package' }), 'R22')).toBeUndefined();
    expect(one(findings(pyproject(bounded), { asset_type: 'mcp_server' }), 'R22')).toBeDefined();
  });
});

describe('models: weights, lineage, cards without front matter', () => {
  it('pickle shards next to safetensors are a low finding; without a safe copy R01 stays high (c040)', () => {
    const both = [
      'model-00001-of-00002.safetensors',
      'model-00002-of-00002.safetensors',
      'pytorch_model-00001-of-00002.bin',
      'config.json',
    ];
    const r = one(findings(both.join('\n')), 'R01');
    expect(r).toMatchObject({ severity: 'low', title: 'Pickle-based weight files next to a safe copy' });
    expect(r?.evidence).toMatchObject({ count: 1 });
    expect(one(findings(['pytorch_model.bin', 'config.json', 'tokenizer.json'].join('\n')), 'R01')?.severity).toBe(
      'high',
    );
  });

  it('a Modelfile built from a local weights file names no base model: lineage at 0.6 (c028)', () => {
    const r = one(findings('FROM ./out/merged.Q4_K_M.gguf\nSYSTEM You are a helpful assistant.\n'), 'R12');
    expect(r).toMatchObject({ confidence: 0.6, evidence: { path: 'FROM' } });
    expect(one(findings('FROM qwen2.5:7b\nPARAMETER num_ctx 8192\n'), 'R12')).toBeUndefined();
  });

  it('prose submitted for a model is its card: licence and NSFW rules read it (c083)', () => {
    const a = analyze(input({ raw_manifest: 'Photoreal merge, explicit pornographic output' }));
    expect(a.parsed.kind).toBe('hf_model_card');
    expect(a.findings.map((f) => f.rule_id).sort()).toEqual(['R08', 'R13']);
    // a licence text stays a licence text
    const lic = analyze(
      input({ raw_manifest: 'License\n\nPermission is hereby granted, free of charge, to any person' }),
    );
    expect(lic.parsed.kind).toBe('text');
  });
});

describe('licences a card states in its text (license: other)', () => {
  const card = (body: string): string => `---\nlicense: other\n---\n# Model\n\n${body}\n`;
  it('a non-commercial licence named in the text of an `other` card is confident (c032)', () => {
    expect(one(findings(card('Released under a non-commercial research license.')), 'R09')).toMatchObject({
      confidence: 1,
    });
  });
  it('a known model licence named in the text of an `other` card gives its terms (c092)', () => {
    const r = one(findings(card('Weights are under the Llama 2 Community License; see LICENSE.')), 'R10');
    expect(r).toMatchObject({ severity: 'medium', confidence: 1, evidence: { model_licence: 'llama2' } });
  });
});

describe('MCP: templates, cloud documents, self-described packages', () => {
  it('a template server.json (placeholder name) is recorded, not scored: its declared credential is an example (c090)', () => {
    const tpl = JSON.stringify({
      name: 'io.github.<you>/<your-server>',
      description: 'My server',
      version_detail: { version: '0.1.0' },
      packages: [
        {
          registry_name: 'pypi',
          name: 'your-server',
          version: '0.1.0',
          environment_variables: [{ name: 'SERVICE_TOKEN' }],
        },
      ],
    });
    const fs = findings(tpl, { asset_type: 'mcp_server' });
    expect(one(fs, 'R14')?.severity).toBe('informational');
    expect(one(fs, 'R20')?.severity).toBe('informational');
    expect(enrich(input({ asset_type: 'mcp_server', raw_manifest: tpl }), CTX).intrinsic_risk_severity).toBe(
      'informational',
    );
    // a literal secret is a leak even in a template
    const leaked = tpl.replace(
      '{"name":"SERVICE_TOKEN"}',
      '{"name":"SERVICE_TOKEN","value":"sk-live-51Hx9kQ2mNv8rT4wZ7pL3cYb"}',
    );
    expect(leaked).not.toBe(tpl);
    expect(one(findings(leaked, { asset_type: 'mcp_server' }), 'R20')?.severity).toBe('high');
  });

  it('file tools on a cloud document store are one band below local writes (c019)', () => {
    const tools = (where: string): string =>
      JSON.stringify({
        tools: [
          {
            name: 'delete_file',
            description: `Deletes a file from ${where} by its ID.`,
            inputSchema: { type: 'object' },
          },
          { name: 'list_files', description: `Lists files in ${where}.`, inputSchema: { type: 'object' } },
        ],
      });
    expect(one(findings(tools('Dropbox'), { asset_type: 'mcp_server' }), 'R18')).toMatchObject({
      confidence: 0.6,
      title: 'File changes in a cloud document store',
    });
    expect(one(findings(tools('the workspace'), { asset_type: 'mcp_server' }), 'R18')?.confidence).toBe(1);
  });

  it("a mail server's folder tools change mailboxes, one band below local writes", () => {
    const mail = JSON.stringify({
      tools: [
        { name: 'create_folder', description: 'Create a new email folder/mailbox.', inputSchema: { type: 'object' } },
        { name: 'list_emails', description: 'List emails in a folder.', inputSchema: { type: 'object' } },
      ],
    });
    expect(one(findings(mail, { asset_type: 'mcp_server' }), 'R18')).toMatchObject({
      confidence: 0.6,
      title: 'Mailbox folder changes',
    });
  });

  it('a package published as an MCP server (mcpName) is judged by its own description (c053)', () => {
    const pkg = (mcpName?: string): string =>
      JSON.stringify({
        name: 'shell-bridge',
        version: '2.0.0',
        license: 'MIT',
        description: 'Run shell commands for your agent',
        ...(mcpName ? { mcpName } : {}),
      });
    expect(one(findings(pkg('io.github.acme/shell-bridge'), { asset_type: 'mcp_server' }), 'R17')?.confidence).toBe(1);
    expect(one(findings(pkg(), { asset_type: 'package' }), 'R17')).toBeUndefined();
  });
});

describe('exposure', () => {
  it('compose ports published on every interface are recorded (informational), loopback binds are not (c025)', () => {
    const compose = (port: string): string =>
      `services:\n  llm:\n    image: ollama/ollama:0.5.7\n    ports:\n      - "${port}"\n`;
    const r = one(findings(compose('11434:11434'), { asset_type: 'container_image' }), 'R25');
    expect(r).toMatchObject({
      severity: 'informational',
      evidence: { ports: [{ service: 'services.llm', ports: ['11434:11434'] }] },
    });
    expect(one(findings(compose('127.0.0.1:11434:11434'), { asset_type: 'container_image' }), 'R25')).toBeUndefined();
  });
});

describe('content the engine now reads', () => {
  it('identifies a licence file from its wording (MIT, a model licence by name); a custom text stays unnamed', () => {
    const mit =
      'MIT License\n\nCopyright (c) 2024 Someone\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\nof this software...';
    const a = analyze(input({ raw_manifest: mit }));
    expect(a.parsed.licenses).toEqual(['MIT']);
    expect(a.findings.map((f) => f.rule_id)).toEqual(['R00']);
    const llama = analyze(
      input({ raw_manifest: 'LLAMA 2 COMMUNITY LICENSE AGREEMENT\n\nLicensor grants you a non-exclusive licence...' }),
    );
    expect(one(llama.findings, 'R10')?.evidence).toMatchObject({ model_licence: 'llama2' });
    const custom = analyze(
      input({ raw_manifest: 'The Foo Model License\n\nThe Licensor grants you the right to use the model.' }),
    );
    expect(custom.parsed.licenses).toEqual([]);
  });

  it('config.json `_name_or_path` (a Hub id other than the asset) is the lineage', () => {
    const cfg = (nop: string): string =>
      JSON.stringify({ architectures: ['LlamaForCausalLM'], model_type: 'llama', _name_or_path: nop });
    const r = enrich(input({ name: 'someone/tuned-7b', raw_manifest: cfg('meta-llama/Llama-2-7b-hf') }), CTX);
    expect(r.aibom.lineage).toMatchObject({ parents: ['meta-llama/Llama-2-7b-hf'] });
    expect(
      analyze(input({ name: 'someone/tuned-7b', raw_manifest: cfg('/content/drive/out') })).parsed.base_models,
    ).toEqual([]);
    expect(
      analyze(input({ name: 'someone/tuned-7b', raw_manifest: cfg('someone/tuned-7b') })).parsed.base_models,
    ).toEqual([]);
    // a copy under another owner (same model name) is a re-upload, not a parent; an unnamed asset cannot be told apart
    const copy = analyze(input({ name: 'copier/Llama-2-7b-hf', raw_manifest: cfg('meta-llama/Llama-2-7b-hf') }));
    expect(copy.parsed.base_models).toEqual([]);
    expect(analyze(input({ raw_manifest: cfg('meta-llama/Llama-2-7b-hf') })).parsed.base_models).toEqual([]);
  });

  it('destructive tool names (apps, records) are R18 at 0.6 unless annotated non-destructive', () => {
    const tools = (ann?: Record<string, unknown>): string =>
      JSON.stringify({
        tools: [
          { name: 'delete_app', description: 'Deletes an app.', inputSchema: {}, ...(ann ? { annotations: ann } : {}) },
        ],
      });
    expect(one(findings(tools(), { asset_type: 'mcp_server' }), 'R18')).toMatchObject({
      title: 'Destructive operations',
      confidence: 0.6,
    });
    expect(one(findings(tools({ destructiveHint: false }), { asset_type: 'mcp_server' }), 'R18')).toBeUndefined();
  });

  it('destructive verbs in camelCase names and in an action enum; schemas under `parameters`/`schema` count', () => {
    const list = (tool: Record<string, unknown>): string => JSON.stringify([tool]);
    // `rds_ResetPwd`: the verb after a separator, in a camelCase hump
    expect(
      one(
        findings(list({ name: 'rds_ResetPwd', description: 'Reset the DB password.' }), { asset_type: 'mcp_server' }),
        'R18',
      )?.evidence.tools,
    ).toEqual(['rds_ResetPwd']);
    // one generic tool whose operation enum offers delete, its schema under the non-standard `schema` key
    const generic = list({
      name: 'cloud_control',
      description: 'Manage cloud resources.',
      schema: {
        type: 'object',
        properties: { operation: { type: 'string', enum: ['create', 'read', 'update', 'delete', 'list'] } },
      },
    });
    expect(
      analyze(input({ asset_type: 'mcp_server', raw_manifest: generic })).parsed.tools[0]?.inputSchema,
    ).toMatchObject({ type: 'object' });
    expect(one(findings(generic, { asset_type: 'mcp_server' }), 'R18')).toMatchObject({
      title: 'Destructive operations',
      confidence: 0.6,
    });
    // an enum of read-only choices, or a destructive word that is not an action parameter, is nothing
    const readOnly = list({
      name: 'cloud_query',
      description: 'Query cloud resources.',
      parameters: {
        type: 'object',
        properties: {
          operation: { type: 'string', enum: ['read', 'list'] },
          status: { type: 'string', enum: ['active', 'deleted'] },
        },
      },
    });
    expect(one(findings(readOnly, { asset_type: 'mcp_server' }), 'R18')).toBeUndefined();
  });

  it('Gradio share links (share=True, --share) are public exposure', () => {
    const nb = (src: string): string =>
      JSON.stringify({ nbformat: 4, metadata: {}, cells: [{ cell_type: 'code', source: [src] }] });
    expect(one(findings(nb('demo.launch(debug=True, share=True)'), { asset_type: 'notebook' }), 'R25')?.title).toBe(
      'Public share link',
    );
    expect(one(findings(nb('demo.launch(share=False)'), { asset_type: 'notebook' }), 'R25')).toBeUndefined();
    const docker = 'FROM python:3.11-slim\nRUN pip install gradio==4.44.1\nCMD python app.py --share\n';
    expect(one(findings(docker, { asset_type: 'container_image' }), 'R25')?.title).toBe('Public share link');
  });

  it('toxic combinations: fetched content + shell is high; credentials + egress flagged medium', () => {
    const cfg = JSON.stringify({
      tools: [
        { name: 'fetch_url', description: 'Fetches a URL and returns the page.', inputSchema: {} },
        { name: 'run_command', description: 'Runs a shell command.', inputSchema: {} },
      ],
    });
    const r = one(findings(cfg, { asset_type: 'mcp_server' }), 'R29');
    expect(r).toMatchObject({ severity: 'high', confidence: 1, title: 'Untrusted input reaches a shell' });
    const ext = JSON.stringify({
      manifest_version: 3,
      name: 'x',
      version: '1',
      permissions: ['cookies'],
      host_permissions: ['<all_urls>'],
    });
    expect(one(findings(ext, { asset_type: 'extension' }), 'R29')).toMatchObject({
      severity: 'medium',
      title: 'Credentials next to network egress',
    });
    const fetchOnly = JSON.stringify({
      tools: [{ name: 'fetch_url', description: 'Fetches a URL.', inputSchema: {} }],
    });
    expect(one(findings(fetchOnly, { asset_type: 'mcp_server' }), 'R29')).toBeUndefined();
  });

  it('capabilities from input-schema parameter names: command → shell, url → egress, path → file read', () => {
    const tool = (param: string): string =>
      JSON.stringify({
        tools: [
          {
            name: 'do_it',
            description: 'Does it.',
            inputSchema: { type: 'object', properties: { [param]: { type: 'string' } } },
          },
        ],
      });
    const fs = (param: string): string[] => findings(tool(param), { asset_type: 'mcp_server' }).map((f) => f.rule_id);
    expect(fs('command')).toContain('R17');
    expect(fs('url')).toContain('R19');
    expect(one(findings(tool('file_path'), { asset_type: 'mcp_server' }), 'R18')?.title).toBe(
      'Read-only filesystem access',
    );
    expect(fs('query').filter((r) => ['R17', 'R18', 'R19'].includes(r))).toEqual([]);
  });
});
