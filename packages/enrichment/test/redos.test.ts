// Worst cases at 1 MiB through the public entry points (docs/security.md "Linear-time parsing and caps"): the attack
// strings recheck found for the patterns the engine used before its linear-time rewrite (fixtures/redos-attacks.json),
// and the hostile shapes of docs/security.md (runs of newlines, blanks, dashes, `<!--`, brackets, quotes, `license` + newlines),
// each placed where a parser or rule reads it. Every analysis must finish within BOUND_MS on the reference machine (@risk/time-budget)
// (before the rewrite several of these ran for minutes).
import { ZCreateFirewallBody, ZCreateSignalBody } from '@risk/contracts';
import { enrich, type EnrichmentInput } from '../src/index';
import { CTX, fixture, input } from './helpers';
import { expectWithinBudget } from '@risk/time-budget';

const MIB = 1 << 20;
const BOUND_MS = 1500;

interface Attack {
  site: string;
  pattern: string;
  pumps: Array<{ prefix: string; pump: string }>;
  suffix: string;
}
const ATTACKS = (JSON.parse(fixture('redos-attacks.json')) as { attacks: Attack[] }).attacks;

/** The attack with its pumps repeated until the string is about `size` characters. */
function pumped(a: Pick<Attack, 'pumps' | 'suffix'>, size = MIB): string {
  const fixed = a.pumps.reduce((n, p) => n + p.prefix.length, 0) + a.suffix.length;
  const per = a.pumps.reduce((n, p) => n + p.pump.length, 0);
  const k = Math.max(1, Math.floor((size - fixed) / per));
  return a.pumps.map((p) => p.prefix + p.pump.repeat(k)).join('') + a.suffix;
}
const run = (pump: string, prefix = '', suffix = ''): string => pumped({ pumps: [{ prefix, pump }], suffix });

/** Where a hostile string reaches the parsers and rules: one manifest shape per entry. */
const CONTEXTS: Record<string, (s: string) => Partial<EnrichmentInput>> = {
  'text (model)': (s) => ({ asset_type: 'model', raw_manifest: s }),
  'text (package)': (s) => ({ asset_type: 'package', raw_manifest: s }),
  'model card body': (s) => ({ asset_type: 'model', raw_manifest: `---\ntags: [x]\n---\n${s}` }),
  'MCP tools': (s) => ({
    asset_type: 'mcp_server',
    raw_manifest: JSON.stringify({
      tools: [{ name: s.slice(0, 4096), description: s, inputSchema: { properties: { a: { description: s } } } }],
    }),
  }),
  'MCP registry server.json': (s) => ({
    asset_type: 'mcp_server',
    raw_manifest: JSON.stringify({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-07-09/server.schema.json',
      name: s,
      description: 'd',
      version: s,
      repository: { url: s },
      packages: [{ registryType: 'npm', identifier: s, version: s }],
      remotes: [{ type: 'sse', url: s }],
    }),
  }),
  'MCP client config': (s) => ({
    asset_type: 'agent',
    raw_manifest: JSON.stringify({ mcpServers: { a: { command: 'npx', args: [s, '-y'], env: { API_KEY: s } } } }),
  }),
  'package.json': (s) => ({
    asset_type: 'package',
    raw_manifest: JSON.stringify({
      name: 'p',
      version: '1.0.0',
      license: s,
      dependencies: { a: s },
      scripts: { x: s },
    }),
  }),
  'pyproject.toml': (s) => ({
    asset_type: 'package',
    raw_manifest: `[project]\nname = "p"\nversion = "1.0"\nlicense = ${JSON.stringify(s)}\ndependencies = [${JSON.stringify(s)}]\n`,
  }),
  metadata: (s) => ({
    asset_type: 'model',
    name: s.slice(0, 512),
    metadata: { license: s, base_model: s, datasets: [s], tags: [s], pickle_imports: [s], chat_template: s },
  }),
};

/** Each old pattern's attack goes through the text paths and the contexts that reach its site. */
const SITE_CONTEXTS: Record<string, string[]> = {
  'aibom.ts': ['metadata', 'package.json'],
  'license.ts': ['package.json', 'metadata'],
  'parse.ts': ['text (package)', 'model card body', 'pyproject.toml'],
  'rules.ts': ['MCP tools', 'MCP registry server.json', 'MCP client config'],
  'versions.ts': ['package.json', 'pyproject.toml'],
};

const HOSTILE: Array<[string, string]> = [
  ['newlines', run('\n', 'a')],
  ['license + newlines + two words', run('\n', 'license', 'Apache License')],
  ['# License heading + newlines', run('\n', '# License', ' [')],
  ['blanks', run(' ', 'x', '!')],
  ['tabs after FROM', run('\t', 'FROM\n', '\u2028')],
  ['dashes', run('-', 'x', '\u0000')],
  ['unclosed <!--', run('<!--')],
  ['<', run('<')],
  ['[', run('[')],
  ['{', run('{')],
  ['double quotes', run('"')],
  ['single quotes', run("'")],
  ['#', run('#', '', '\n#')],
  [';', run(';', 'a', '\n;')],
  ['github.com:', run('github.com:')],
  ['sk-ant- key prefixes', run('sk-ant-', '', '-')],
  ['eyJ JWT prefixes', run('eyJc-')],
  ['xoxb- key prefixes', run('xoxb-', '', '_')],
  ['alphanumeric run after a key prefix', run('a', 'xoxb-', '_')],
  ['cross-tool phrases', run('when using the x', '', ' too')],
  ['compact YAML sequences', run('- ', 'a:\n', 'x')],
  ['YAML flow nesting', run('[', 'a: ')],
  ['version operators after blanks', run(' ', 'a', '!<')],
];

const timings: Array<{ label: string; ms: number }> = [];
afterAll(() => {
  const worst = [...timings].sort((a, b) => b.ms - a.ms).slice(0, 10);
  // the figures docs/security.md quotes (worst cases after the rewrite)
  console.log(
    `worst 1 MiB cases (of ${timings.length}):\n${worst.map((t) => `${t.ms.toFixed(0)} ms  ${t.label}`).join('\n')}`,
  );
});

/** enrich() held to BOUND_MS on the reference machine (@risk/time-budget says how a busy machine is allowed for). */
function timedEnrich(label: string, over: Partial<EnrichmentInput>): ReturnType<typeof enrich> {
  const { result, ms } = expectWithinBudget(BOUND_MS, () => enrich(input(over), CTX));
  timings.push({ label, ms });
  return result;
}

describe('every old pattern’s attack string at 1 MiB completes within the bound', () => {
  const cases = ATTACKS.filter((a) => a.site.startsWith('packages/enrichment/')).flatMap((a) => {
    const file = a.site.split('/').pop()?.split(':')[0] ?? '';
    const contexts = ['text (model)', ...(SITE_CONTEXTS[file] ?? [])];
    return contexts.map((c) => [`${a.site} ${a.pattern.slice(0, 40)} via ${c}`, a, c] as const);
  });
  it.each(cases)('%s', (label, attack, context) => {
    const s = pumped(attack);
    timedEnrich(label, CONTEXTS[context]!(s));
  });
});

describe('hostile shapes at 1 MiB complete within the bound in every manifest context', () => {
  const cases = HOSTILE.flatMap(([name, s]) => Object.keys(CONTEXTS).map((c) => [`${name} via ${c}`, s, c] as const));
  it.each(cases)('%s', (label, s, context) => {
    timedEnrich(label, CONTEXTS[context]!(s));
  });

  it('finds the licence after a run of newlines (the hostile model card) quickly', () => {
    const r = timedEnrich('license + newlines (licence found)', {
      asset_type: 'model',
      raw_manifest: `# Model\n\nA small model.\n\nlicense${'\n'.repeat(MIB)}MIT licence`,
    });
    expect(r.aibom.components[0]?.license).toBe('MIT');
  });
});

describe('patterns recheck flags by fuzzing but whose repeats are all bounded: linear at 1 MiB', () => {
  // scripts/check-redos.ts ALLOW cites these: recheck's attack strings, pumped to 1 MiB, in a model card's prose
  const cases = [
    ['PROSE_LINEAGE (parse/card.ts)', run('BASED\tON\t', '', '\u0000QUANTISED\tFRO')],
    [
      'AUTHOR_LINE (rules/signals/publisher.ts)',
      pumped({
        pumps: [
          { prefix: '-\n-S', pump: '\n-' },
          { prefix: '-', pump: '\nA' },
        ],
        suffix: '',
      }),
    ],
  ] as const;
  it.each(cases)('%s', (label, s) => {
    timedEnrich(label, CONTEXTS['model card body']!(s));
  });
});

describe('contract schemas at 1 MiB', () => {
  const hostile = [run(':0', '0', '\u0000'), run('.0-', 'G', '\u0000'), run('a', 'https://'), run('/', 'http://x')];
  it.each(hostile.map((s, i) => [i, s] as const))('signal and firewall bodies with hostile string #%s', (_i, s) => {
    const { ms } = expectWithinBudget(BOUND_MS, () => {
      ZCreateSignalBody.safeParse({
        fingerprint: s,
        asset_type: 'model',
        org_id: s,
        observed_at: 1,
        name: s,
        version: s,
        source_url: s,
        raw_manifest: s,
        metadata: { a: s },
      });
      ZCreateFirewallBody.safeParse({ name: s, type: 'fortinet', host: s, port: 443, api_token: s });
    });
    timings.push({ label: `contracts hostile #${_i}`, ms });
  });
});
