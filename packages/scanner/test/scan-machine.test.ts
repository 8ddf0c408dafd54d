// `risk-scan scan --machine --home DIR` over a home folder built here, with each agent client's configuration in the
// shape its vendor documents (data/clients.json names the page), a Hugging Face cache laid out as huggingface_hub
// writes it (snapshots linking into blobs) and an Ollama model store.
import { createHash } from 'node:crypto';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { AGENT_CLIENTS, clientPaths } from '../src/machine';
import { maliciousPickle, runScan, safetensors, tempDir, writeTree } from './helpers';
import { scaledByLoad } from '@risk/testing';

jest.setTimeout(scaledByLoad(180_000));

interface Report {
  assets: Array<{
    fingerprint: string;
    name: string;
    asset_type: string;
    locations: Array<{ path: string; line: number; kind: string }>;
    artifacts: Array<{ verdict: string }>;
    findings: Array<{ rule_id: string }>;
  }>;
}

const server = (name: string) => ({ command: 'npx', args: ['-y', `@example/${name}-mcp`] });

/** One configuration per client, in its own format (JSON, JSONC, TOML, YAML) and key (mcpServers, servers, …). */
function linuxHome(): string {
  const home = tempDir('home');
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  writeTree(home, {
    '.config/Claude/claude_desktop_config.json': json({
      mcpServers: { 'claude-desktop-fs': server('claude-desktop') },
    }),
    '.claude.json': json({
      numStartups: 4,
      mcpServers: { 'claude-code-user': server('claude-code') },
      projects: {
        '/work/app': { mcpServers: { 'claude-code-project': { type: 'http', url: 'https://mcp.example.com/mcp' } } },
      },
    }),
    '.cursor/mcp.json': json({ mcpServers: { 'cursor-server': server('cursor') } }),
    '.config/Code/User/mcp.json': `{
  // VS Code user configuration (JSONC)
  "inputs": [{ "type": "promptString", "id": "token", "password": true }],
  "servers": {
    "vscode-server": { "type": "stdio", "command": "npx", "args": ["-y", "@example/vscode-mcp"], "env": { "TOKEN": "\${input:token}" } },
  },
}
`,
    '.codeium/windsurf/mcp_config.json': json({ mcpServers: { 'windsurf-server': server('windsurf') } }),
    '.gemini/settings.json': json({
      ui: { theme: 'GitHub' },
      mcpServers: { 'gemini-server': server('gemini'), 'gemini-http': { httpUrl: 'http://mcp.example.com/mcp' } },
    }),
    '.codex/config.toml':
      'model = "o4-mini"\n\n[mcp_servers.codex-server]\ncommand = "npx"\nargs = ["-y", "@example/codex-mcp"]\n',
    '.continue/config.yaml':
      'name: my-assistant\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: continue-server\n    command: npx\n    args: ["-y", "@example/continue-mcp"]\n',
    '.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json': json({
      mcpServers: { 'cline-server': { ...server('cline'), disabled: false, autoApprove: [] } },
    }),
    '.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json': json({
      mcpServers: { 'roo-server': server('roo') },
    }),
    '.config/zed/settings.json': `// Zed settings\n{\n  "theme": "One Dark",\n  "context_servers": {\n    "zed-server": { "command": "npx", "args": ["-y", "@example/zed-mcp"], "env": {} }\n  }\n}\n`,
    '.aws/amazonq/mcp.json': json({ mcpServers: { 'amazon-q-server': server('amazon-q') } }),
    '.kiro/settings/mcp.json': json({ mcpServers: { 'kiro-server': server('kiro') } }),
    '.lmstudio/mcp.json': json({ mcpServers: { 'lm-studio-server': server('lm-studio') } }),
    '.copilot/mcp-config.json': json({
      mcpServers: { 'copilot-server': { type: 'local', ...server('copilot'), tools: ['*'] } },
    }),
  });
  // Hugging Face hub cache: snapshot files are links into blobs/
  const repo = path.join(home, '.cache/huggingface/hub/models--acme--tiny-bert');
  const weights = safetensors();
  const pickle = maliciousPickle();
  const wHash = createHash('sha256').update(weights).digest('hex');
  const pHash = createHash('sha256').update(pickle).digest('hex');
  writeTree(repo, {
    [`blobs/${wHash}`]: weights,
    [`blobs/${pHash}`]: pickle,
    'blobs/cfg': JSON.stringify({ architectures: ['BertModel'], model_type: 'bert' }),
    'refs/main': 'abc123',
    'snapshots/abc123/.keep': '',
  });
  symlinkSync(`../../blobs/${wHash}`, path.join(repo, 'snapshots/abc123/model.safetensors'));
  symlinkSync(`../../blobs/${pHash}`, path.join(repo, 'snapshots/abc123/pytorch_model.bin'));
  symlinkSync('../../blobs/cfg', path.join(repo, 'snapshots/abc123/config.json'));
  // Ollama: a manifest naming a GGUF model layer and a template layer
  const gguf = Buffer.concat([Buffer.from('GGUF'), Buffer.from([3, 0, 0, 0]), Buffer.alloc(16)]);
  const gHash = createHash('sha256').update(gguf).digest('hex');
  const template = '{{ .System }} {{ .Prompt }}';
  const tHash = createHash('sha256').update(template).digest('hex');
  writeTree(path.join(home, '.ollama/models'), {
    [`blobs/sha256-${gHash}`]: gguf,
    [`blobs/sha256-${tHash}`]: template,
    'manifests/registry.ollama.ai/library/llama3/latest': JSON.stringify({
      schemaVersion: 2,
      layers: [
        { mediaType: 'application/vnd.ollama.image.model', digest: `sha256:${gHash}`, size: gguf.length },
        { mediaType: 'application/vnd.ollama.image.template', digest: `sha256:${tHash}`, size: template.length },
      ],
    }),
  });
  return home;
}

describe('risk-scan scan --machine', () => {
  it('lists at least 13 agent clients, each location with its vendor documentation, on every platform', () => {
    expect(AGENT_CLIENTS.length).toBeGreaterThanOrEqual(13);
    for (const c of AGENT_CLIENTS) expect(c.docs).toMatch(/^https:\/\//);
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const clients = new Set(clientPaths(platform).map((p) => p.client.id));
      expect(clients.size).toBeGreaterThanOrEqual(13);
    }
    expect(clientPaths('win32').find((p) => p.client.id === 'claude-desktop')?.rel).toBe(
      'AppData/Roaming/Claude/claude_desktop_config.json',
    );
    expect(clientPaths('darwin').find((p) => p.client.id === 'claude-desktop')?.rel).toBe(
      'Library/Application Support/Claude/claude_desktop_config.json',
    );
  });

  const home = linuxHome();
  const run = runScan(['scan', '--machine', '--home', home, '--format', 'json'], {
    env: { RISK_SCAN_PLATFORM: 'linux' },
  });
  const report = JSON.parse(run.stdout || '{"assets":[]}') as Report;

  it('finds every configured client server under ~/, with the client it came from', () => {
    expect(run.code).toBe(0);
    const servers = report.assets.filter((a) => a.asset_type === 'mcp_server');
    const kinds = new Set(servers.flatMap((a) => a.locations.map((l) => l.kind)));
    for (const id of [
      'claude-desktop',
      'claude-code',
      'cursor',
      'vscode',
      'windsurf',
      'gemini-cli',
      'codex',
      'continue',
      'cline',
      'roo-code',
      'zed',
      'amazon-q',
      'kiro',
      'lm-studio',
      'github-copilot-cli',
    ])
      expect(kinds).toContain(id);
    expect(servers.map((a) => a.name)).toEqual(
      expect.arrayContaining([
        'claude-code-user',
        'claude-code-project',
        'vscode-server',
        'codex-server',
        'continue-server',
        'zed-server',
      ]),
    );
    // Gemini's `httpUrl` is read as the server's endpoint: plain http is an insecure transport
    expect(servers.find((a) => a.name === 'gemini-http')?.findings.map((f) => f.rule_id)).toContain('R25');
    const cursor = servers.find((a) => a.name === 'cursor-server');
    expect(cursor?.locations[0]).toEqual({ path: '~/.cursor/mcp.json', line: 3, kind: 'cursor' });
  });

  it('reads the Hugging Face cache through its blob links and names the model after its repository', () => {
    const model = report.assets.find((a) => a.name === 'acme/tiny-bert');
    expect(model?.asset_type).toBe('model');
    expect(model?.locations.map((l) => l.path)).toEqual(
      expect.arrayContaining(['~/.cache/huggingface/hub/models--acme--tiny-bert/snapshots/abc123/pytorch_model.bin']),
    );
    expect(model?.artifacts.map((a) => a.verdict).sort()).toEqual(['benign', 'malicious']);
  });

  it('reads Ollama manifests into a model named as `ollama list` shows it', () => {
    const llama = report.assets.find((a) => a.name === 'llama3:latest');
    expect(llama?.asset_type).toBe('model');
    expect(llama?.locations[0]?.path).toBe('~/.ollama/models/manifests/registry.ollama.ai/library/llama3/latest');
    expect(llama?.artifacts).toHaveLength(1);
  });

  it('gives a server configured on two machines the same fingerprint, and scans a home and a tree together', () => {
    const repo = tempDir('repo-with-cursor');
    writeTree(repo, { '.cursor/mcp.json': JSON.stringify({ mcpServers: { 'cursor-server': server('cursor') } }) });
    const both = JSON.parse(
      runScan(['scan', repo, '--machine', '--home', home, '--format', 'json'], { env: { RISK_SCAN_PLATFORM: 'linux' } })
        .stdout,
    ) as Report;
    const merged = both.assets.find((a) => a.name === 'cursor-server');
    expect(merged?.locations.map((l) => l.path).sort()).toEqual(['.cursor/mcp.json', '~/.cursor/mcp.json'].sort());
    expect(merged?.fingerprint).toBe(report.assets.find((a) => a.name === 'cursor-server')?.fingerprint);
  });

  it('exits 2 when the home folder does not exist', () => {
    const r = runScan(['scan', '--machine', '--home', path.join(home, 'missing')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/home folder not found/);
  });
});
