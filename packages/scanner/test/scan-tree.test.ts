// `risk-scan scan PATH` run as a process over real trees (docs/scanner.md): what it finds and skips, the reports in every
// format against their published schemas, exit codes, the ignore file, and the symlink and size guards.
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import {
  cycloneDxErrors,
  maliciousPickle,
  runScan,
  safetensors,
  sarifErrors,
  spdxErrors,
  tempDir,
  writeTree,
} from './helpers';
import { scaledByLoad } from '@risk/testing';

interface JsonReport {
  stats: { files: number; truncated: boolean; symlinks_outside: number; skipped_dirs: number; ignored: number };
  skipped: Array<{ path: string; reason: string }>;
  assets: Array<{
    fingerprint: string;
    asset_type: string;
    name: string;
    version: string | null;
    risk_severity: string;
    locations: Array<{ path: string; line: number; kind: string }>;
    artifacts: Array<{ sha256: string; verdict: string }>;
    findings: Array<{ rule_id: string }>;
    ignored: Array<{ rule_id: string; reason: string }>;
  }>;
}

const CURSOR_MCP = `{
  // Cursor's project configuration
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/"]
    },
    "remote-tools": { "url": "http://tools.example.com/mcp" }
  }
}
`;

function repoTree(): string {
  const root = tempDir('repo');
  writeTree(root, {
    '.cursor/mcp.json': CURSOR_MCP,
    'requirements.txt': 'torch==1.13.0\ntransformers>=4\n',
    'models/classifier/config.json': JSON.stringify({
      architectures: ['BertForSequenceClassification'],
      model_type: 'bert',
    }),
    'models/classifier/pytorch_model.bin': maliciousPickle(),
    'models/safe/model.safetensors': safetensors(),
    'node_modules/some-pkg/package.json': JSON.stringify({
      name: 'some-pkg',
      version: '1.0.0',
      dependencies: { openai: '*' },
    }),
    '.gitignore': 'generated/\n',
    'generated/Modelfile': 'FROM llama3\nSYSTEM "you are helpful"\n',
    'src/app.ts': 'export const x = 1;\n',
    'services/api/.venv/pyvenv.cfg': 'home = /usr/bin\n',
    'services/api/.venv/lib/python3.12/site-packages/torch-2.0.0.dist-info/METADATA': 'Name: torch\nVersion: 2.0.0\n',
    Dockerfile: 'FROM python:3.12\nRUN pip install torch\n',
  });
  return root;
}

jest.setTimeout(scaledByLoad(180_000));

describe('risk-scan scan PATH', () => {
  const root = repoTree();
  // a folder outside the tree, reached through a symlink: must never be read
  const outside = tempDir('outside');
  writeTree(outside, { 'mcp.json': JSON.stringify({ mcpServers: { leaked: { command: 'evil' } } }) });
  symlinkSync(outside, path.join(root, 'link-out'));
  // the same configuration again through a link inside the tree: the same assets, one more location
  symlinkSync(path.join(root, '.cursor'), path.join(root, 'cursor-again'));

  const json = runScan(['scan', root, '--format', 'json']);
  const report = JSON.parse(json.stdout) as JsonReport;
  const byName = (n: string) => report.assets.find((a) => a.name === n);

  it('finds MCP servers per server with the line they are configured on', () => {
    expect(json.code).toBe(0);
    const fs = byName('filesystem');
    expect(fs?.asset_type).toBe('mcp_server');
    expect(fs?.locations).toEqual(
      expect.arrayContaining([
        { path: '.cursor/mcp.json', line: 4, kind: 'mcp_client_config' },
        { path: 'cursor-again/mcp.json', line: 4, kind: 'mcp_client_config' },
      ]),
    );
    expect(fs?.findings.map((f) => f.rule_id)).toContain('R18');
    expect(byName('remote-tools')?.locations[0]).toMatchObject({ path: '.cursor/mcp.json', line: 8 });
    expect(fs?.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('hashes and analyses model files found by magic, grouped with their folder', () => {
    const malicious = report.assets.find((a) =>
      a.locations.some((l) => l.path === 'models/classifier/pytorch_model.bin'),
    );
    expect(malicious?.asset_type).toBe('model');
    expect(malicious?.locations.map((l) => l.path)).toContain('models/classifier/config.json');
    expect(malicious?.artifacts[0]?.verdict).toBe('malicious');
    expect(malicious?.risk_severity).toBe('critical');
    const safe = report.assets.find((a) => a.locations.some((l) => l.path === 'models/safe/model.safetensors'));
    expect(safe?.artifacts[0]?.verdict).toBe('benign');
  });

  it('reads requirements and Dockerfiles, and skips dependencies, virtualenvs, gitignored paths and outside links', () => {
    const req = report.assets.find((a) => a.locations[0]?.path === 'requirements.txt');
    expect(req?.findings.map((f) => f.rule_id)).toContain('R23');
    expect(report.assets.some((a) => a.locations[0]?.path === 'Dockerfile' && a.asset_type === 'container_image')).toBe(
      true,
    );
    const paths = report.assets.flatMap((a) => a.locations.map((l) => l.path));
    expect(paths.filter((p) => /node_modules|\.venv|generated|link-out/.test(p))).toEqual([]);
    expect(report.assets.some((a) => a.name === 'leaked')).toBe(false);
    expect(report.stats.symlinks_outside).toBe(1);
    expect(report.stats.skipped_dirs).toBeGreaterThanOrEqual(2);
    expect(report.stats.ignored).toBe(1);
  });

  it('includes dependencies and installed AI packages on request', () => {
    const r = JSON.parse(runScan(['scan', root, '--format', 'json', '--include-deps']).stdout) as JsonReport;
    const torch = r.assets.find((a) => a.name === 'torch' && a.version === '2.0.0');
    expect(torch?.asset_type).toBe('package');
    expect(torch?.locations[0]?.path).toMatch(/torch-2\.0\.0\.dist-info\/METADATA$/);
    expect(r.assets.some((a) => a.name === 'some-pkg')).toBe(true);
  });

  it('gives the same asset the same fingerprint in another tree', () => {
    const other = tempDir('other');
    writeTree(other, {
      'nested/dir/.mcp.json': CURSOR_MCP.replace('// Cursor', '// another'),
      'w/pytorch_model.bin': maliciousPickle(),
    });
    const r = JSON.parse(runScan(['scan', other, '--format', 'json']).stdout) as JsonReport;
    const fps = new Set(r.assets.map((a) => a.fingerprint));
    expect(fps.has(byName('filesystem')!.fingerprint)).toBe(true);
    expect(fps.has(byName('remote-tools')!.fingerprint)).toBe(true);
  });

  it('writes SARIF 2.1.0 that validates, with files, lines and stable partial fingerprints', () => {
    const a = runScan(['scan', root, '--format', 'sarif']);
    const b = runScan(['scan', root, '--format', 'sarif']);
    const log = JSON.parse(a.stdout) as {
      runs: Array<{
        results: Array<{
          ruleId: string;
          partialFingerprints: Record<string, string>;
          locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>;
        }>;
      }>;
    };
    expect(sarifErrors(log)).toEqual([]);
    const results = log.runs[0]!.results;
    const r18 = results.find((r) => r.ruleId === 'R18');
    expect(r18?.locations[0]?.physicalLocation).toMatchObject({
      artifactLocation: { uri: '.cursor/mcp.json' },
      region: { startLine: 4 },
    });
    const again = JSON.parse(b.stdout) as typeof log;
    expect(again.runs[0]!.results.map((r) => r.partialFingerprints)).toEqual(results.map((r) => r.partialFingerprints));
  });

  it('writes one CycloneDX 1.6 and one SPDX 2.3 AI-BOM of everything found, valid against their schemas', () => {
    const cdx = JSON.parse(runScan(['scan', root, '--format', 'cyclonedx']).stdout) as { components: unknown[] };
    expect(cycloneDxErrors(cdx)).toEqual([]);
    expect(cdx.components.length).toBe(report.assets.length);
    const spdx = JSON.parse(runScan(['scan', root, '--format', 'spdx']).stdout) as {
      packages: Array<{ SPDXID: string }>;
    };
    expect(spdxErrors(spdx)).toEqual([]);
    const ids = spdx.packages.map((p) => p.SPDXID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('prints an 80-column table grouped by severity', () => {
    const t = runScan(['scan', root]);
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/^CRITICAL \(1\)/m);
    expect(t.stdout).toContain('models/classifier/pytorch_model.bin');
    for (const line of t.stdout.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    expect(t.stdout).not.toMatch(/\x1b\[/); // not a TTY: no colour
  });

  it('exits 1 at the --fail-on band, 0 below it, and honours .riskignore entries until they expire', () => {
    expect(runScan(['scan', root, '--format', 'json', '--fail-on', 'critical']).code).toBe(1);
    const model = report.assets.find((a) => a.risk_severity === 'critical')!;
    const ignoreDir = tempDir('ignore');
    const accept = path.join(ignoreDir, 'accept');
    writeTree(ignoreDir, {
      accept: `# accepted\n${model.fingerprint} reason: quarantined test fixture expires: 2999-01-01\n`,
      expired: `${model.fingerprint} reason: was fine expires: 2001-01-01\n`,
      bad: 'just a name without a reason\n',
    });
    const ok = runScan(['scan', root, '--format', 'json', '--fail-on', 'critical', '--ignore-file', accept]);
    expect(ok.code).toBe(0);
    const judged = (JSON.parse(ok.stdout) as JsonReport).assets.find((a) => a.fingerprint === model.fingerprint);
    expect(judged?.ignored[0]?.reason).toBe('quarantined test fixture');
    expect(
      runScan(['scan', root, '--fail-on', 'critical', '--ignore-file', path.join(ignoreDir, 'expired')]).code,
    ).toBe(1);
    const bad = runScan(['scan', root, '--ignore-file', path.join(ignoreDir, 'bad')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/line 1/);
    // a per-finding entry in the root's .riskignore drops only that rule
    const rootIgnore = tempDir('rootignore');
    writeTree(rootIgnore, {
      '.mcp.json': CURSOR_MCP,
      '.riskignore': 'filesystem R18 reason: sandboxed container\n',
    });
    const fsAsset = (JSON.parse(runScan(['scan', rootIgnore, '--format', 'json']).stdout) as JsonReport).assets.find(
      (a) => a.name === 'filesystem',
    );
    expect(fsAsset?.findings.map((f) => f.rule_id)).not.toContain('R18');
    expect(fsAsset?.ignored).toEqual([{ rule_id: 'R18', reason: 'sandboxed container' }]);
  });

  it('exits 2 on usage and I/O errors', () => {
    expect(runScan(['scan', root, '--format', 'xml']).code).toBe(2);
    const missing = runScan(['scan', path.join(root, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/not a directory/);
  });

  it('reports the file-count and size caps instead of exceeding them', () => {
    const capped = JSON.parse(runScan(['scan', root, '--format', 'json', '--max-files', '3']).stdout) as JsonReport;
    expect(capped.stats.truncated).toBe(true);
    expect(capped.stats.files).toBe(3);
    const small = JSON.parse(runScan(['scan', root, '--format', 'json', '--max-file-size', '20']).stdout) as JsonReport;
    expect(small.skipped.map((s) => s.path)).toEqual(expect.arrayContaining(['models/classifier/pytorch_model.bin']));
  });
});
