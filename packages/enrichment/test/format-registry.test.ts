// The manifest format registry (src/formats/registry.ts, docs/enrichment.md "Manifests recognised"): every format is
// defined once, the corpus names it, recognition goes by what most of a manifest is, and it never throws nor slows down
// on hostile input.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { RAW_MANIFEST_MAX_BYTES } from '@risk/contracts';
import { expectWithinBudget } from '@risk/time-budget';
import { analyze, ASSET_TYPES } from '../src/index';
import { CARRIES, CORPUS_FORMATS, FORMATS, fileNameOf, formatById } from '../src/formats';
import { parseManifest } from '../src/parse';
import { parseJsonc } from '../src/parse/jsonc';
import { requirementLineKind } from '../src/parse/packages';
import {
  loadCorpus,
  readManifest,
  REQUIRED_FORMATS,
  REQUIRED_SUBFORMATS,
  validateCorpus,
} from '../scripts/corpus-index';
import { FORMATS_DOC_PATH, renderFormatsDoc } from '../scripts/formats-doc';
import { input } from './helpers';

/** A package-like or server-like name. */
const word = fc.stringMatching(/^[a-z][a-z0-9]{1,12}$/);

describe('format registry', () => {
  it('defines each format once, with what it carries from the known list', () => {
    const ids = FORMATS.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const f of FORMATS) for (const c of f.carries) expect(CARRIES).toContain(c);
    expect(new Set(CORPUS_FORMATS.map((f) => f.name)).size).toBe(CORPUS_FORMATS.length);
    // the formats a missing licence is reported for
    expect(FORMATS.filter((f) => f.carries.includes('licence')).map((f) => f.id)).toEqual([
      'hf_model_card',
      'hf_dataset_card',
      'mcpb_manifest',
      'npm_package',
      'pyproject',
      'setup_cfg',
    ]);
  });

  it('validates the corpus index against the registry: every format and subformat is one it defines', () => {
    const index = loadCorpus();
    expect(validateCorpus(index)).toEqual([]);
    for (const e of index.entries) {
      expect(REQUIRED_FORMATS).toContain(e.format);
      if (e.subformat !== undefined) expect(REQUIRED_SUBFORMATS[e.format]).toContain(e.subformat);
    }
    const broken = { ...index, entries: [{ ...index.entries[0]!, id: 'x1', format: 'weights_idx' }, ...index.entries] };
    expect(validateCorpus(broken)).toContain(
      'entry x1: format weights_idx is not a format of the registry (src/formats/registry.ts)',
    );
  });

  it.each(CORPUS_FORMATS.map((f) => [f.id, f.example] as const))(
    '%s: its corpus example (%s) is recognised as it',
    (id, example) => {
      const entry = loadCorpus().entries.find((e) => e.id === example);
      expect(entry?.format).toBe(formatById(id)?.corpus?.name);
      const a = analyze(input({ asset_type: entry!.asset_type, raw_manifest: readManifest(entry!) }));
      expect(a.parsed.kind).toBe(id);
    },
  );

  it.each(FORMATS.filter((f) => f.example).map((f) => [f.id, f.example!] as const))(
    '%s: its inline example is recognised as it',
    (id, example) => {
      const asset_type = id === 'hf_dataset_card' ? 'dataset' : 'model';
      expect(analyze(input({ asset_type, raw_manifest: example })).parsed.kind).toBe(id);
    },
  );

  it('reads a listing wrapped in an object (a model inventory), not generic JSON', () => {
    const inventory = {
      model_info: { architecture: 'MistralForCausalLM', model_type: 'mistral' },
      model_files: [
        { name: 'consolidated.safetensors', size: 47144846024 },
        { name: 'model-00001-of-00010.safetensors', size: 4781571736 },
        { name: 'params.json', size: 500 },
      ],
    };
    const a = analyze(input({ asset_type: 'model', raw_manifest: JSON.stringify(inventory) }));
    expect(a.parsed.kind).toBe('file_listing');
    expect(a.parsed.files.map((f) => f.path)).toEqual([
      'consolidated.safetensors',
      'model-00001-of-00010.safetensors',
      'params.json',
    ]);
    expect(a.findings.map((f) => f.rule_id)).not.toContain('format_not_analysed');
    // an array of tool names is no listing: no weight file among them
    const tools = { tools: [{ name: 'search' }, { name: 'fetch' }] };
    expect(analyze(input({ asset_type: 'mcp_server', raw_manifest: JSON.stringify(tools) })).parsed.kind).toBe(
      'mcp_tools',
    );
  });

  it('takes a file name as a hint only: it never recognises content on its own', () => {
    expect(fileNameOf(input({ source_url: 'https://github.com/o/r/blob/main/requirements-dev.txt?plain=1' }))).toBe(
      'requirements-dev.txt',
    );
    expect(fileNameOf(input({ metadata: { filename: 'deploy/Dockerfile' } }))).toBe('Dockerfile');
    const prose = 'See the installation guide.\nThanks for reading.';
    const p = parseManifest(
      input({ asset_type: 'package', raw_manifest: prose, metadata: { filename: 'requirements.txt' } }),
    );
    expect(p.kind).toBe('text');
    // a noisier requirements file is accepted when its name says what it is
    const half = 'torch==2.4.0\nnumpy==2.0.0\nsee notes below\nthis line is prose\n';
    expect(parseManifest(input({ asset_type: 'package', raw_manifest: half })).kind).toBe('text');
    const named = parseManifest(
      input({ asset_type: 'package', raw_manifest: half, source_url: 'https://x.example/requirements.txt' }),
    );
    expect(named.kind).toBe('requirements');
    expect(named.skipped_lines).toEqual({ lines: [3, 4], total: 2 });
  });
});

describe('requirements recognised by what most of it is', () => {
  it('one odd line among 300 pins: still requirements, every pin read, the line reported', () => {
    const pins = Array.from({ length: 300 }, (_, i) => `pkg${i}==1.${i}.0`);
    pins.splice(150, 0, '.id-allocator==0.0.1');
    pins.push('transformers==4.30.0');
    const a = analyze(input({ asset_type: 'package', raw_manifest: pins.join('\n') }));
    expect(a.parsed.kind).toBe('requirements');
    expect(a.parsed.dependencies).toHaveLength(301);
    expect(a.findings.find((f) => f.rule_id === 'manifest_lines_skipped')?.evidence).toEqual({
      path: 'raw_manifest',
      lines: [151],
      total: 1,
    });
    // the vulnerable pin still matches its advisories
    expect(a.findings.some((f) => f.rule_id === 'R23' && f.evidence.package === 'transformers')).toBe(true);
  });

  it('a pyproject.toml with one line TOML refuses: still read without it, the error and the line reported', () => {
    const raw = '[project]\nname = "x"\nversion = "1.0"\n.odd==1\ndependencies = ["transformers==4.30.0"]\n';
    const a = analyze(input({ asset_type: 'package', raw_manifest: raw }));
    expect(a.parsed.kind).toBe('pyproject');
    expect(a.parsed.dependencies.map((d) => d.name)).toEqual(['transformers']);
    expect(a.parsed.skipped_lines).toEqual({ lines: [4], total: 1 });
    const ids = a.findings.map((f) => f.rule_id);
    expect(ids).toEqual(expect.arrayContaining(['manifest_unparseable', 'manifest_lines_skipped', 'R23']));
  });

  it('a package.json with an odd line: read past it, the error and the line reported', () => {
    const raw = '{\n  "name": "x",\n  "version": "1.0.0",\n  .odd==1\n  "dependencies": { "lodash": "4.17.0" }\n}\n';
    const p = parseManifest(input({ asset_type: 'package', raw_manifest: raw }));
    expect([p.kind, p.name]).toEqual(['npm_package', 'x']);
    expect(p.dependencies.map((d) => [d.name, d.spec])).toEqual([['lodash', '4.17.0']]);
    expect(p.skipped_lines).toEqual({ lines: [4], total: 1 });
    expect(p.parse_errors[0]).toMatch(/^json: /);
    // past a few errors it stays unreadable
    expect(parseManifest(input({ raw_manifest: '{"a": ?, "b": ?, "c": ?, "d": ?}' })).kind).toBe('text');
  });

  it('reads hashed pins across continuation lines (pip-compile --generate-hashes)', () => {
    const raw = `torch==2.4.0 \\\n    --hash=sha256:${'a'.repeat(64)} \\\n    --hash=sha256:${'b'.repeat(64)}\nnumpy==2.0.0 --hash=sha256:${'c'.repeat(64)}\n`;
    const p = parseManifest(input({ asset_type: 'package', raw_manifest: raw }));
    expect(p.kind).toBe('requirements');
    expect(p.dependencies.map((d) => [d.name, d.spec, d.path])).toEqual([
      ['torch', '==2.4.0', 'line 1'],
      ['numpy', '==2.0.0', 'line 4'],
    ]);
    expect(p.skipped_lines).toBeUndefined();
  });

  const name = word;
  const version = fc.tuple(fc.nat(40), fc.nat(40), fc.nat(40)).map(([a, b, c]) => `${a}.${b}.${c}`);
  const junk = fc.oneof(
    fc.tuple(name, version).map(([n, v]) => `.${n}==${v}`),
    fc.constantFrom(
      '[metadata]',
      '[project]',
      'FROM python:3.11',
      'RUN curl -fsSL https://x.example/i.sh | sh',
      'name: value',
      '---',
      '{',
      '- item',
      'see the README for details',
      '???',
    ),
    fc
      .string({ minLength: 1, maxLength: 40 })
      .filter(
        (s) =>
          !/[\r\n\u2028\u2029]/.test(s) &&
          s.trim() !== '' &&
          !s.trim().startsWith('#') &&
          !s.endsWith('\\') &&
          requirementLineKind(s.trim()) === null,
      ),
  );
  const file = fc
    .uniqueArray(fc.tuple(name, version), { minLength: 3, maxLength: 60, selector: ([n]) => n })
    .chain((pins) =>
      fc.tuple(
        fc.constant(pins),
        fc.array(fc.tuple(junk, fc.nat(pins.length)), { maxLength: Math.floor(pins.length / 3) }),
      ),
    );

  it('a TOML table header atop a few pins is one stray line, not a pyproject (a case the property found)', () => {
    const raw = ['[project]', 'tn2u57==22.31.4', 'f5==25.35.37', 'a72==40.28.9'].join('\n');
    const p = parseManifest(input({ asset_type: 'package', raw_manifest: raw }));
    expect(p.kind).toBe('requirements');
    expect(p.dependencies.map((d) => `${d.name}${d.spec}`)).toEqual([
      'tn2u57==22.31.4',
      'f5==25.35.37',
      'a72==40.28.9',
    ]);
    expect(p.skipped_lines?.total).toBe(1);
  });

  it('a valid requirements file plus k junk lines (k ≤ a third of it) stays requirements with every pin', () => {
    fc.assert(
      fc.property(file, ([pins, junks]) => {
        const lines = pins.map(([n, v]) => `${n}==${v}`);
        for (const [j, at] of junks) lines.splice(at % (lines.length + 1), 0, j);
        const p = parseManifest(input({ asset_type: 'package', raw_manifest: lines.join('\n') }));
        expect(p.kind).toBe('requirements');
        const read = new Set(p.dependencies.map((d) => `${d.name}${d.spec}`));
        for (const [n, v] of pins) expect(read).toContain(`${n}==${v}`);
        expect(p.skipped_lines?.total ?? 0).toBe(junks.length);
      }),
      { numRuns: 200 },
    );
  });
});

describe('JSONC', () => {
  /** Pretty JSON with a trailing comma before every closing bracket and a comment on every line. */
  const jsonc = (v: unknown): string =>
    '/* JSONC */\n' +
    JSON.stringify(v, null, 2)
      .replace(/\n(\s*)([\]}])/g, ',\n$1$2')
      .split('\n')
      .map((l, i) => (i % 2 ? `${l} // note ${i}` : `${l} /* c */`))
      .join('\n');

  it('parses JSON with comments and trailing commas to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => {
        expect(parseJsonc(jsonc(v))).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 300 },
    );
  });

  it('reads a VS Code mcp.json with comments as an MCP client configuration', () => {
    fc.assert(
      fc.property(
        fc.dictionary(word, fc.tuple(word, fc.array(word, { maxLength: 4 })), { minKeys: 1, maxKeys: 5 }),
        (servers) => {
          const cfg = {
            servers: Object.fromEntries(Object.entries(servers).map(([k, [cmd, args]]) => [k, { command: cmd, args }])),
          };
          const p = parseManifest(input({ asset_type: 'mcp_server', raw_manifest: jsonc(cfg) }));
          expect([p.kind, p.format, p.parse_errors]).toEqual(['mcp_client_config', 'json', []]);
          expect(p.servers.map((s) => s.name).sort()).toEqual(Object.keys(servers).sort());
        },
      ),
      { numRuns: 100 },
    );
  });

  it.each([
    [
      'VS Code settings.json (mcp.servers, JSONC)',
      '{\n  "editor.fontSize": 14, // mine\n  "mcp": { "servers": { "gh": { "command": "npx", "args": ["-y", "srv"] }, }, },\n}',
      'mcp.servers.gh',
    ],
    [
      "Continue's config.yaml (a list of servers)",
      'name: my assistant\nmcpServers:\n  - name: gh\n    command: npx\n    args: ["-y", "srv"]\n',
      'mcpServers.gh',
    ],
    [
      'Zed settings (context_servers, command as an object)',
      '{"context_servers": {"gh": {"command": {"path": "npx", "args": ["-y", "srv"], "env": {}}}}}',
      'context_servers.gh',
    ],
  ])('reads the MCP servers of %s', (_k, raw, path) => {
    const p = parseManifest(input({ asset_type: 'mcp_server', raw_manifest: raw }));
    expect(p.kind).toBe('mcp_client_config');
    expect(p.servers.map((s) => [s.path, s.command, s.args])).toEqual([[path, 'npx', ['-y', 'srv']]]);
  });

  it('keeps __proto__ as an own key and refuses nesting past the limit without overflowing the stack', () => {
    expect(Object.keys(parseJsonc('{"__proto__": {"x": 1}, // c\n}') as object)).toEqual(['__proto__']);
    expect(() => parseJsonc(`${'['.repeat(100_000)} // c`)).toThrow(/nested deeper/);
  });
});

describe('recognition never throws and stays linear', () => {
  const assetType = fc.constantFrom(...ASSET_TYPES);
  it('returns a registry format for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), assetType, (raw, asset_type) => {
        const p = parseManifest(input({ asset_type, raw_manifest: raw }));
        expect(raw.trim() === '' ? p.kind === 'empty' : formatById(p.kind) !== undefined).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  /** A line repeated to the largest manifest a signal may carry. */
  const fill = (line: string): string => line.repeat(Math.floor(RAW_MANIFEST_MAX_BYTES / line.length));
  it.each([
    ['pins with junk', 'torch==2.4.0\n.odd==1\nnumpy==2.0.0\n'],
    ['continuation lines', 'a==1 \\\n'],
    ['blank runs', ' \t \n'],
    ['JSONC comments', '{"a": 1, // c\n'],
    ['open brackets', '['],
    ['Dockerfile lines', 'FROM x\nRUN y \\\n'],
    ['INI sections', '[metadata]\nname = x\n'],
    ['front matter fences', '---\n'],
    ['file names', 'model-00001.safetensors\n'],
    ['TOML headers', '[project]\n'],
    ['Modelfile directives', 'FROM llama3\nSYSTEM """\n'],
  ])('%s at the size limit', (_k, line) => {
    const raw = fill(line);
    expect(Buffer.byteLength(raw)).toBeLessThanOrEqual(RAW_MANIFEST_MAX_BYTES);
    for (const asset_type of ['package', 'model'] as const)
      expectWithinBudget(1500, () => parseManifest(input({ asset_type, raw_manifest: raw })));
  });
});

describe('generated documentation', () => {
  it('docs/formats.md holds the catalogue the format registry renders', () => {
    expect(readFileSync(FORMATS_DOC_PATH, 'utf8')).toBe(renderFormatsDoc());
  });
});
