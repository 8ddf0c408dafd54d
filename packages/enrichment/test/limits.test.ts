// Caps on what one manifest can produce, and hostile-but-valid JSON/YAML (docs/security.md "Linear-time parsing and
// caps"): the engine never throws, everything it returns is storable in Postgres text/jsonb, and what it cuts is said
// in an `analysis_truncated` finding.
import { analyze, enrich } from '../src/index';
import { LIMITS, storable, storableString } from '../src/limits';
import { CTX, input } from './helpers';
import { expectWithinBudget } from '@risk/time-budget';
import { RAW_MANIFEST_MAX_BYTES } from '@risk/contracts';

const NUL = String.fromCharCode(0);

function hasUnstorable(s: string): boolean {
  return s.includes(NUL) || storableString(s) !== s;
}
function json(v: unknown): string {
  return JSON.stringify(v);
}
function truncated(r: ReturnType<typeof enrich>): Array<{ what: string; total: number; kept: number }> {
  const f = r.findings.find((x) => x.rule_id === 'analysis_truncated');
  return (f?.evidence.truncated as Array<{ what: string; total: number; kept: number }>) ?? [];
}

describe('caps', () => {
  it('cuts 100 000 tools to the tool cap and says so in an informational finding', () => {
    const tools = Array.from({ length: 100_000 }, (_, i) => ({ name: `t${i}`, description: 'd' }));
    const r = enrich(input({ asset_type: 'mcp_server', raw_manifest: json({ tools }) }), CTX);
    const f = r.findings.find((x) => x.rule_id === 'analysis_truncated');
    expect(f?.severity).toBe('informational');
    expect(f?.score_contribution).toBe(0);
    expect(truncated(r)).toEqual(
      expect.arrayContaining([
        { what: 'tools', total: 100_000, kept: LIMITS.tools },
        { what: 'aibom.tools', total: LIMITS.tools, kept: LIMITS.aibom_tools },
      ]),
    );
    expect(r.aibom.components.filter((c) => c.type === 'tool')).toHaveLength(LIMITS.aibom_tools);
  });

  it('cuts a file listing of 300 000 entries (more than a call takes arguments) without a parse error', () => {
    const r = enrich(
      input({ asset_type: 'model', raw_manifest: json(Array.from({ length: 300_000 }, () => 'a.bin')) }),
      CTX,
    );
    expect(r.findings.map((f) => f.rule_id)).not.toContain('manifest_unparseable');
    expect(truncated(r)).toEqual(expect.arrayContaining([{ what: 'files', total: 300_000, kept: LIMITS.files }]));
  });

  it('cuts dependencies, servers and long names, and bounds the AI-BOM', () => {
    const deps: Record<string, string> = {};
    for (let i = 0; i < 5000; i++) deps[`dep-${i}`] = '^1.0.0';
    deps['x'.repeat(100_000)] = '1.0.0';
    const r = enrich(
      input({ asset_type: 'package', raw_manifest: json({ name: 'p', version: '1.0.0', dependencies: deps }) }),
      CTX,
    );
    const what = truncated(r).map((t) => t.what);
    expect(what).toEqual(expect.arrayContaining(['dependencies', 'aibom.dependencies']));
    expect(r.aibom.components.length).toBeLessThanOrEqual(1 + LIMITS.aibom_dependencies);
    for (const c of r.aibom.components) expect(String(c.name).length).toBeLessThanOrEqual(LIMITS.item_string + 1);
    const servers: Record<string, unknown> = {};
    for (let i = 0; i < 1000; i++) servers[`s${i}`] = { command: 'npx', args: [`pkg${i}`] };
    const c = enrich(input({ asset_type: 'agent', raw_manifest: json({ mcpServers: servers }) }), CTX);
    expect(truncated(c)).toEqual(expect.arrayContaining([{ what: 'servers', total: 1000, kept: LIMITS.servers }]));
  });

  it('caps evidence strings and arrays', () => {
    const r = enrich(
      input({
        asset_type: 'model',
        raw_manifest: json({ architectures: ['x'], auto_map: { a: 'y'.repeat(100_000) } }),
      }),
      CTX,
    );
    for (const f of r.findings) {
      expect(f.description.length).toBeLessThanOrEqual(LIMITS.output_string + 1);
      expect(json(f.evidence).length).toBeLessThan(20 * LIMITS.output_string);
    }
  });

  it('gives every AI-BOM component a distinct id, also for 200 tools of one name (no quadratic retry)', () => {
    const tools = Array.from({ length: 5000 }, () => ({ name: 'same', description: 'd' }));
    const { result: r } = expectWithinBudget(1500, () =>
      enrich(input({ asset_type: 'mcp_server', raw_manifest: json({ tools }) }), CTX),
    );
    const ids = r.aibom.components.map((c) => c.spdx_id as string);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('hostile but valid JSON ends as a normal result', () => {
  it('replaces NUL escapes in names, keys and values in every output', () => {
    const raw =
      '{"name":"a\\u0000b","version":"1\\u0000","license":"MIT\\u0000","dependencies":{"x\\u0000y":"1.0.0"},"scripts":{"postinstall":"curl x\\u0000"}}';
    const r = enrich(input({ asset_type: 'package', raw_manifest: raw, name: null }), CTX);
    expect(hasUnstorable(json(r))).toBe(false);
    expect(json(r)).not.toContain('\\u0000');
    expect(r.aibom.components.some((c) => c.name === 'x\uFFFDy')).toBe(true);
  });

  it("storable keeps a __proto__ key as a key, not as the copy's prototype", () => {
    const out = storable(JSON.parse('{"a":{"__proto__":{"x":1},"b":2}}')) as { a: object };
    expect(JSON.stringify(out)).toBe('{"a":{"__proto__":{"x":1},"b":2}}');
    expect(Object.getPrototypeOf(out.a)).toBe(Object.prototype);
  });

  it('replaces lone surrogates (encodeURIComponent would throw on them)', () => {
    const raw = '{"name":"@s\\ud800/p","version":"1.0.0\\udc00","dependencies":{"\\ud800":"1.0.0"}}';
    const r = enrich(input({ asset_type: 'package', raw_manifest: raw }), CTX);
    expect(hasUnstorable(json(r))).toBe(false);
  });

  it.each([
    ['arrays', (d: number) => '['.repeat(d) + ']'.repeat(d)],
    ['objects', (d: number) => '{"a":'.repeat(d) + '1' + '}'.repeat(d)],
  ])('survives 100 000 levels of nested %s wherever they sit', (_k, nest) => {
    const deep = nest(100_000);
    for (const raw of [
      deep,
      `{"tools":${deep}}`,
      `{"tools":[{"name":"t","description":"d","inputSchema":${deep}}]}`,
      `{"architectures":["x"],"auto_map":${deep}}`,
      `{"name":"p","version":"1","license":${deep}}`,
      `{"class_name":"Functional","config":${deep}}`,
      `{"model-index":${deep},"license":"mit"}`,
    ]) {
      const r = enrich(
        input({ asset_type: 'model', raw_manifest: raw, metadata: { keras_config: JSON.parse(deep) } }),
        CTX,
      );
      expect(() => JSON.stringify(r)).not.toThrow();
    }
  });

  it('bounds a YAML alias bomb (billion laughs)', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${prev}`).join(',')}]`,
      );
    }
    const { result: r } = expectWithinBudget(1500, () =>
      enrich(input({ asset_type: 'model', raw_manifest: `---\n${lines.join('\n')}\n---\nbody` }), CTX),
    );
    expect(r.findings.map((f) => f.rule_id)).toContain('manifest_unparseable');
  });

  it.each([
    ['compact sequences', `a:\n${'- '.repeat(100_000)}x`],
    ['flow sequences', `a: ${'['.repeat(100_000)}`],
    ['flow mappings', `a: ${'{'.repeat(100_000)}`],
    // 1,400 levels of indentation fill 0.98 MiB: the largest manifest a signal may carry (RAW_MANIFEST_MAX_BYTES),
    // 22 times the nesting limit. (5,000 levels made 12.5 MB, an input the API refuses before analysis.)
    ['block mappings', Array.from({ length: 1400 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')],
  ])('refuses YAML nested deeper than the limit (%s) instead of crashing the parser', (_k, yaml) => {
    for (const raw of [yaml, `---\n${yaml}\n---\nbody`]) {
      expect(Buffer.byteLength(raw)).toBeLessThanOrEqual(RAW_MANIFEST_MAX_BYTES);
      const { result: a } = expectWithinBudget(1500, () => analyze(input({ asset_type: 'model', raw_manifest: raw })));
      expect(a.findings.map((f) => f.rule_id)).toContain('manifest_unparseable');
    }
  });

  it('still parses ordinary nested YAML', () => {
    const a = analyze(
      input({
        asset_type: 'model',
        raw_manifest:
          '---\nlicense: mit\nmodel-index:\n  - name: m\n    results:\n      - task: {type: t}\n---\n# card',
      }),
    );
    expect(a.parsed.licenses).toEqual(['mit']);
    expect(a.findings.map((f) => f.rule_id)).not.toContain('manifest_unparseable');
  });
});

describe('repeated dependencies', () => {
  it('keeps one copy of a dependency repeated word for word and says so, so a repeated vulnerable pin raises one finding', () => {
    const raw = 'transformers==4.30.0\n'.repeat(1999);
    const result = enrich(
      {
        fingerprint: 'pypi:repeats',
        asset_type: 'package',
        name: 'repeats',
        version: '1.0.0',
        source_url: null,
        raw_manifest: raw,
        metadata: null,
      },
      {
        threats: [],
        publisher: { org_count: 1, signal_count: 1, first_seen: '2026-01-01T00:00:00Z' },
        now: '2026-11-23T00:00:00Z',
      },
    );
    // one R23 finding per advisory of transformers 4.30.0 (however many the shipped feed holds), never one per copy
    const cves = result.findings.filter((f) => f.rule_id === 'R23').map((f) => f.cve_ids.join(','));
    expect(cves.length).toBeGreaterThan(0);
    expect(new Set(cves).size).toBe(cves.length);
    const byRule = new Map<string, number>();
    for (const f of result.findings) if (f.rule_id !== 'R23') byRule.set(f.rule_id, (byRule.get(f.rule_id) ?? 0) + 1);
    expect(Math.max(...byRule.values())).toBeLessThanOrEqual(2);
    const truncated = result.findings.find((f) => f.rule_id === 'analysis_truncated');
    expect(JSON.stringify(truncated?.evidence)).toContain('repeated dependencies');
  });
});
