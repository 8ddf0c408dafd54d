import fs from 'node:fs';
import path from 'node:path';
import { JSON_BODY_MAX_DEPTH, RAW_MANIFEST_MAX_BYTES } from '@risk/contracts';
import { BODY_LIMIT } from '@risk/public-api';

/**
 * The adversarial manifests (docs/security.md "Analysis under a budget", hostile corpus), as signal
 * bodies for POST /v1/signals. Each is as large as the API lets it be: raw_manifest at most 1 MiB (UTF-8) and the
 * whole JSON request body under the single-signal BODY_LIMIT (a manifest of control characters doubles when
 * JSON-escaped, so for those the body is the binding limit).
 *
 * - every attack string recheck found for the engine's patterns before the linear-time rewrite
 *   (packages/enrichment/test/fixtures/redos-attacks.json), pumped to the limit and placed in a manifest shape that
 *   reaches the pattern's site (the same site → shape mapping as packages/enrichment/test/redos.test.ts);
 * - the shapes the issue names: the `license` + newlines model card, YAML alias bombs, deep nesting, lists far
 *   beyond the caps of packages/enrichment/src/limits.ts, repeated ids, NUL and lone-surrogate escapes;
 * - the manifest formats collectors send (MCP client configs and registry server.json, package.json,
 *   requirements.txt, pyproject.toml, Hugging Face cards and config.json, Dockerfile, docker-compose), each with
 *   hostile content. Their shapes follow the real samples in packages/enrichment/test/fixtures.
 *
 * Outcomes, as the issue states them: hostile but valid content ends `enriched` (`truncated`: with an
 * `analysis_truncated` finding) or is refused with a 400 at the API (`rejected`: a NUL character in a field, which
 * Postgres cannot store, or an unpaired UTF-16 surrogate, whose `\ud800` escape jsonb refuses) — never a 5xx, never a
 * permanently failed or stuck asset. In raw_manifest JSON both travel as escapes the engine parses: those are enriched.
 */
export interface HostileSignal {
  label: string;
  body: Record<string, unknown>;
  expect: 'enriched' | 'truncated' | 'rejected';
}

const ATTACKS_FILE = path.join(__dirname, '../../../packages/enrichment/test/fixtures/redos-attacks.json');
interface Attack {
  site: string;
  pattern: string;
  pumps: Array<{ prefix: string; pump: string }>;
  suffix: string;
}
const ATTACKS = (JSON.parse(fs.readFileSync(ATTACKS_FILE, 'utf8')) as { attacks: Attack[] }).attacks;

// room for the envelope the harness adds (org_id, observed_at) and the other fields
const MAX_BODY_BYTES = BODY_LIMIT - 8 * 1024;

const bodyBytes = (b: Record<string, unknown>): number => Buffer.byteLength(JSON.stringify(b));
const rawBytes = (b: Record<string, unknown>): number =>
  typeof b.raw_manifest === 'string' ? Buffer.byteLength(b.raw_manifest) : 0;
const fits = (b: Record<string, unknown>): boolean =>
  rawBytes(b) <= RAW_MANIFEST_MAX_BYTES && bodyBytes(b) <= MAX_BODY_BYTES;

/**
 * `make(n)` with the largest repetition count n that fits the API's limits. Sizes grow linearly in n, so two
 * probes give the slope; the last steps walk down to a body that fits.
 */
function largest(make: (n: number) => Record<string, unknown>): Record<string, unknown> {
  const [r1, b1, r2, b2] = [rawBytes(make(1)), bodyBytes(make(1)), rawBytes(make(2)), bodyBytes(make(2))];
  const byRaw = r2 > r1 ? Math.floor((RAW_MANIFEST_MAX_BYTES - r1) / (r2 - r1)) + 1 : Infinity;
  const byBody = Math.floor((MAX_BODY_BYTES - b1) / (b2 - b1)) + 1;
  let n = Math.min(byRaw, byBody);
  let body = make(n);
  while (!fits(body) && n > 1) body = make((n = Math.floor(n * 0.99)));
  return body;
}

/** The attack with its pumps repeated n times. */
const pumped = (a: Attack, n: number): string => a.pumps.map((p) => p.prefix + p.pump.repeat(n)).join('') + a.suffix;

/**
 * Where an attack string reaches its pattern: one manifest shape per kind of site. In JSON shapes the string is a
 * JSON value, so the NUL characters some attacks end with travel as `\u0000` escapes (valid JSON the engine parses
 * into strings); in text shapes a NUL would be refused by the API, so it becomes U+0001, which plays the same part
 * for these patterns (a character none of them matches).
 */
const text = (s: string): string => s.replaceAll('\u0000', '\u0001');
const SHAPES: Record<string, (s: string) => Record<string, unknown>> = {
  'model card body': (s) => ({ asset_type: 'model', raw_manifest: `---\nlicense: other\n---\n# Card\n${text(s)}` }),
  'text package': (s) => ({ asset_type: 'package', raw_manifest: text(s) }),
  'package.json': (s) => ({
    asset_type: 'package',
    raw_manifest: JSON.stringify({ name: s, version: '1.0.0', license: s, dependencies: { left: s } }),
  }),
  'pyproject.toml': (s) => ({
    asset_type: 'package',
    raw_manifest: `[project]\nname = "p"\nversion = "1.0"\ndependencies = [${JSON.stringify(text(s))}]\n# ${text(s)}\n`,
  }),
  'MCP tools': (s) => ({
    asset_type: 'mcp_server',
    raw_manifest: JSON.stringify({
      tools: [{ name: 'read', description: s, inputSchema: { properties: { a: { description: 'x' } } } }],
    }),
  }),
  'MCP registry server.json': (s) => ({
    asset_type: 'mcp_server',
    raw_manifest: JSON.stringify({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-07-09/server.schema.json',
      name: 'io.github.acme/hostile',
      description: 'd',
      version: '1.0.0',
      repository: { url: s },
      remotes: [{ type: 'sse', url: s }],
    }),
  }),
  'MCP client config': (s) => ({
    asset_type: 'agent',
    raw_manifest: JSON.stringify({ mcpServers: { a: { command: 'npx', args: ['-y', s], env: { API_KEY: s } } } }),
  }),
};

/** The shape through which each old pattern's site reads tenant content (as in redos.test.ts SITE_CONTEXTS). */
function shapeFor(site: string): string {
  if (site.includes('logger.ts')) return 'MCP client config';
  if (site.includes('contracts/')) return 'MCP registry server.json';
  if (site.includes('aibom.ts') || site.includes('license.ts') || site.includes('versions.ts')) return 'package.json';
  if (site.includes('rules.ts:444')) return 'MCP registry server.json';
  if (site.includes('rules.ts')) return 'MCP tools';
  if (site.includes('parse.ts:18')) return 'model card body';
  if (site.includes('parse.ts:102') || site.includes('parse.ts:640')) return 'pyproject.toml';
  if (site.includes('parse.ts')) return 'text package';
  return 'model card body'; // the admin API's simulators: no signal reaches them; text is the widest path
}

function redosSignals(): HostileSignal[] {
  return ATTACKS.map((a) => {
    const shape = shapeFor(a.site);
    return {
      label: `ReDoS ${a.site} via ${shape}`,
      body: largest((n) => SHAPES[shape]!(pumped(a, n))),
      expect: 'enriched',
    };
  });
}

/** `---` front matter, then a body: the shape of a Hugging Face model card (fixtures/2x-hf-card-*-README.md). */
const card = (frontMatter: string, body = '# Model\n'): string => `---\n${frontMatter}\n---\n${body}`;

/** Billion laughs: ten levels of ten aliases each, 10^9 strings if the parser expanded them. */
function yamlAliasBomb(): string {
  const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 10; i++) {
    const prev = String.fromCharCode(96 + i);
    const cur = String.fromCharCode(97 + i);
    levels.push(`${cur}: &${cur} [${Array(10).fill(`*${prev}`).join(',')}]`);
  }
  return levels.join('\n');
}

const nestedJson = (depth: number, leaf = '"x"'): string => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);

function shapeSignals(): HostileSignal[] {
  const tool = (name: string) => ({ name, description: 'Reads a file.', inputSchema: { type: 'object' } });
  return [
    {
      label: 'hostile model card: license + newlines + two words',
      body: largest((n) => ({ asset_type: 'model', raw_manifest: `license${'\n'.repeat(n)}apache mit` })),
      expect: 'enriched',
    },
    {
      label: 'YAML billion laughs in a model card front matter',
      body: { asset_type: 'model', raw_manifest: card(`license: mit\n${yamlAliasBomb()}\ntags: *j`) },
      expect: 'enriched',
    },
    {
      label: 'YAML billion laughs in a docker-compose file',
      body: {
        asset_type: 'agent',
        raw_manifest: `services:\n  x-bomb: &bomb\n${yamlAliasBomb()
          .split('\n')
          .map((l) => `    ${l}`)
          .join('\n')}\n  app:\n    image: python:3.11\n    environment: *bomb\n`,
      },
      expect: 'enriched',
    },
    {
      label: 'YAML flow nesting (`[` runs) in a model card front matter',
      body: largest((n) => ({ asset_type: 'model', raw_manifest: card(`license: mit\ntags: ${'['.repeat(n)}`) })),
      expect: 'enriched',
    },
    {
      label: 'HF config.json with auto_map nested 10 000 deep',
      body: {
        asset_type: 'model',
        raw_manifest: `{"architectures":["ChatGLMModel"],"auto_map":${nestedJson(10_000)},"model_type":"chatglm"}`,
      },
      expect: 'enriched',
    },
    {
      label: 'MCP client config nested 10 000 deep under a server',
      body: {
        asset_type: 'agent',
        raw_manifest: `{"mcpServers":{"deep":{"command":"npx","args":["-y","pkg"],"env":${nestedJson(10_000)}}}}`,
      },
      expect: 'enriched',
    },
    {
      label: 'JSON arrays nested to the size limit',
      body: largest((n) => ({ asset_type: 'mcp_server', raw_manifest: '['.repeat(n) + ']'.repeat(n) })),
      expect: 'enriched',
    },
    {
      // a signal's metadata object is level 2 of its body: 31 nested objects end at the body depth limit
      label: 'metadata nested to the body depth limit',
      body: {
        asset_type: 'model',
        name: 'deep/metadata',
        metadata: JSON.parse(nestedJson(JSON_BODY_MAX_DEPTH - 1)) as object,
      },
      expect: 'enriched',
    },
    {
      // within its 16 KiB, but past the body depth limit (docs/security.md "JSON nesting depth"); once accepted
      label: 'metadata nested 2 700 deep',
      body: { asset_type: 'model', name: 'deep/metadata-2700', metadata: JSON.parse(nestedJson(2700)) as object },
      expect: 'rejected',
    },
    {
      label: 'MCP client config with 10 000 servers',
      body: {
        asset_type: 'agent',
        raw_manifest: JSON.stringify({
          mcpServers: Object.fromEntries(
            Array.from({ length: 10_000 }, (_, i) => [`s${i}`, { command: 'npx', args: ['-y', `@acme/s${i}`] }]),
          ),
        }),
      },
      expect: 'truncated',
    },
    {
      label: 'MCP tools list: 8 000 tools, all named read_file (repeated ids)',
      body: {
        asset_type: 'mcp_server',
        raw_manifest: JSON.stringify({ tools: Array.from({ length: 8000 }, () => tool('read_file')) }),
      },
      expect: 'truncated',
    },
    {
      label: 'MCP registry server.json with 10 000 packages of one identifier',
      body: {
        asset_type: 'mcp_server',
        raw_manifest: JSON.stringify({
          $schema: 'https://static.modelcontextprotocol.io/schemas/2025-07-09/server.schema.json',
          name: 'io.github.acme/many',
          description: 'd',
          version: '1.0.0',
          packages: Array.from({ length: 10_000 }, () => ({
            registryType: 'npm',
            identifier: '@acme/same',
            version: '1.0.0',
          })),
        }),
      },
      expect: 'truncated',
    },
    {
      label: 'package.json with 40 000 dependencies',
      body: {
        asset_type: 'package',
        raw_manifest: JSON.stringify({
          name: 'many-deps',
          version: '1.0.0',
          dependencies: Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`d${i}`, `^${i}.0.0`])),
        }),
      },
      expect: 'truncated',
    },
    {
      label: 'pyproject.toml with 10 000 copies of one dependency (repeated ids)',
      body: {
        asset_type: 'package',
        raw_manifest: `[project]\nname = "p"\nversion = "1.0"\ndependencies = [\n${'  "torch>=2.0",\n'.repeat(10_000)}]\n`,
      },
      expect: 'truncated',
    },
    {
      label: 'requirements.txt: 1 999 copies of one pinned line (repeated ids)',
      body: { asset_type: 'package', raw_manifest: 'transformers==4.30.0\n'.repeat(1999) },
      expect: 'truncated',
    },
    {
      // 2 500 of each: the front matter stays under LIMITS.yaml_chars, so the YAML is parsed and the lists are cut
      label: 'model card: 2 500 repeated dataset, base model and tag names',
      body: {
        asset_type: 'model',
        raw_manifest: card(
          [
            'license: apache-2.0',
            `base_model:\n${'  - meta-llama/Llama-2-7b-hf\n'.repeat(2500)}`,
            `datasets:\n${'  - tatsu-lab/alpaca\n'.repeat(2500)}`,
            `tags:\n${'  - text-generation\n'.repeat(2500)}`,
          ].join('\n'),
        ),
      },
      expect: 'truncated',
    },
    {
      label: 'file listing: 100 000 copies of pytorch_model.bin (repeated ids)',
      body: largest((n) => ({
        asset_type: 'model',
        raw_manifest: JSON.stringify(Array.from({ length: n }, () => 'pytorch_model.bin')),
      })),
      expect: 'truncated',
    },
    {
      label: 'Dockerfile: FROM, then RUN and ENV lines to the size limit',
      body: largest((n) => ({
        asset_type: 'agent',
        raw_manifest: `FROM python:3.11-slim\n${'RUN pip install --no-cache-dir transformers\nENV API_KEY sk-live\n'.repeat(n)}`,
      })),
      expect: 'enriched',
    },
    {
      label: 'NUL escapes in a package.json name, keys and dependencies',
      body: {
        asset_type: 'package',
        raw_manifest:
          '{"name":"evil\\u0000pkg","version":"1.0\\u0000","license":"MIT\\u0000","dependencies":{"lodash\\u0000":"^4\\u0000"},"scripts":{"postinstall\\u0000":"curl x | sh\\u0000"}}',
      },
      expect: 'enriched',
    },
    {
      label: 'NUL escapes in MCP server names, env and tool names',
      body: {
        asset_type: 'agent',
        raw_manifest:
          '{"mcpServers":{"fs\\u0000":{"command":"npx\\u0000","args":["-y","@modelcontextprotocol/server-filesystem\\u0000"],"env":{"TOKEN\\u0000":"x\\u0000"}}},"tools":[{"name":"read\\u0000","description":"\\u0000"}]}',
      },
      expect: 'enriched',
    },
    {
      label: 'lone surrogate escapes in a package.json',
      body: {
        asset_type: 'package',
        raw_manifest:
          '{"name":"\\ud800evil","version":"1.0.0","license":"MIT\\udfff","dependencies":{"\\udbff":"\\ud800"}}',
      },
      expect: 'enriched',
    },
    {
      // jsonb refuses a lone surrogate's escape: the API refuses it in any field, as it does NUL
      label: 'lone surrogates in name, metadata and raw_manifest',
      body: {
        asset_type: 'model',
        name: 'acme/\ud800model',
        version: '1.0\udfff',
        metadata: { license: 'mit\ud800', tags: ['\udc00'] },
        raw_manifest: card('license: mit\ud800', '# \udfff\n'),
      },
      expect: 'rejected',
    },
    {
      label: 'lone surrogate in the fingerprint',
      body: { fingerprint: 'hf:acme/\ud800lone', asset_type: 'model', raw_manifest: card('license: mit') },
      expect: 'rejected',
    },
  ];
}

/** A NUL character (not an escape) in a field of the signal: Postgres cannot store it, the API refuses it. */
function nulSignals(): HostileSignal[] {
  return [
    { label: 'NUL in name', body: { asset_type: 'model', name: 'acme/\u0000model' }, expect: 'rejected' },
    { label: 'NUL in version', body: { asset_type: 'package', name: 'p', version: '1\u0000' }, expect: 'rejected' },
    {
      label: 'NUL in a metadata value',
      body: { asset_type: 'model', metadata: { license: 'mit', nested: { tags: ['a\u0000'] } } },
      expect: 'rejected',
    },
    {
      label: 'NUL in a metadata key',
      body: { asset_type: 'model', metadata: { 'lic\u0000ense': 'mit' } },
      expect: 'rejected',
    },
    {
      label: 'NUL in raw_manifest',
      body: { asset_type: 'package', raw_manifest: '{"name":"p"}\u0000\n'.repeat(1000) },
      expect: 'rejected',
    },
  ];
}

export function hostileCorpus(): HostileSignal[] {
  return [...redosSignals(), ...shapeSignals(), ...nulSignals()];
}
