/**
 * What one manifest can make the engine produce (docs/security.md "Linear-time parsing and caps"). A manifest is at
 * most 1 MiB (RAW_MANIFEST_MAX_BYTES in @risk/contracts) but 1 MiB of JSON can hold 100 000 tool or package entries;
 * every list the parsers extract is cut to these caps before any rule runs, and whatever is cut is reported in an
 * `analysis_truncated` finding (informational: it does not change the score), never dropped silently.
 */
import type { ParsedManifest } from './types';

export const LIMITS = {
  /** MCP servers (client configs, registry packages and remotes) */
  servers: 200,
  /** tool definitions (MCP tools, agent tools) */
  tools: 500,
  /** dependencies (npm, PyPI, Go) */
  dependencies: 1000,
  /** weight and repository files */
  files: 1000,
  /** declared licences (each can raise its own licence finding) */
  licenses: 20,
  /** base models, datasets and tags of a model card */
  base_models: 50,
  datasets: 100,
  tags: 200,
  /** pickle imports, custom ops, npm scripts */
  pickle_imports: 500,
  custom_ops: 50,
  scripts: 200,
  /**
   * AI-BOM components per kind. With the primary one, base_models, datasets and servers an AI-BOM has at most
   * 1 + 50 + 100 + 300 + 200 + 200 + 300 = 1151 components, each of whose strings is at most item_string long.
   */
  aibom_dependencies: 300,
  aibom_tools: 200,
  aibom_files: 300,
  /** one string in a finding (evidence values, descriptions) */
  output_string: 2000,
  /** a name, version, path or spec of one extracted item (it appears in the AI-BOM several times) */
  item_string: 512,
  /** one array in a finding's evidence */
  evidence_items: 50,
  /** nesting of a user object copied into output (e.g. a config's auto_map); deeper levels become "[truncated]" */
  output_depth: 8,
  /** YAML nesting (block levels + compact `- - -` items, or open `[`/`{`) accepted by the YAML parser */
  yaml_nesting: 64,
  /** `[`/`{` nesting of a JSONC document (JSON that JSON.parse refused) handed to jsonc-parser, which recurses per level */
  jsonc_nesting: 64,
  /**
   * Characters of YAML handed to the `yaml` parser (a whole YAML manifest or a model card's front matter). The parser
   * is linear but slow on hostile shapes (about 2 s for 1 MiB of `\n\t` lines here); real front matter is far smaller.
   */
  yaml_chars: 256 * 1024,
} as const;

export interface Truncation {
  /** what was cut (a ParsedManifest list, or an AI-BOM component kind) */
  what: string;
  total: number;
  kept: number;
}

type ListKey = 'servers' | 'tools' | 'dependencies' | 'files' | 'licenses' | 'base_models' | 'datasets' | 'tags';
const LIST_CAPS: ReadonlyArray<[ListKey, number]> = [
  ['servers', LIMITS.servers],
  ['tools', LIMITS.tools],
  ['dependencies', LIMITS.dependencies],
  ['files', LIMITS.files],
  ['licenses', LIMITS.licenses],
  ['base_models', LIMITS.base_models],
  ['datasets', LIMITS.datasets],
  ['tags', LIMITS.tags],
];

/** Cut the parsed lists to LIMITS (in place) and say what was cut, including what the AI-BOM will leave out. */
export function capParsed(p: ParsedManifest): Truncation[] {
  const cuts: Truncation[] = [];
  // A dependency repeated word for word (same ecosystem, name and spec, on another line) says nothing new, but
  // every copy would raise its own findings (1,999 copies of one vulnerable pin: 2,000 findings). Keep the first
  // (its place is the one findings name).
  const seen = new Set<string>();
  const unique = p.dependencies.filter((d) => {
    const key = `${d.ecosystem}\u0000${d.name}\u0000${d.spec}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (unique.length < p.dependencies.length) {
    cuts.push({ what: 'repeated dependencies', total: p.dependencies.length, kept: unique.length });
    p.dependencies = unique;
  }
  for (const [key, cap] of LIST_CAPS) {
    const list = p[key] as unknown[];
    if (list.length > cap) {
      cuts.push({ what: key, total: list.length, kept: cap });
      list.length = cap;
    }
  }
  for (const [key, cap] of [
    ['pickle_imports', LIMITS.pickle_imports],
    ['custom_ops', LIMITS.custom_ops],
  ] as const) {
    if (p[key].length > cap) {
      cuts.push({ what: key, total: p[key].length, kept: cap });
      p[key].length = cap;
    }
  }
  let longNames = 0;
  const cap = (s: string): string => {
    if (s.length <= LIMITS.item_string) return s;
    longNames++;
    return capString(s, LIMITS.item_string);
  };
  for (const d of p.dependencies) {
    d.name = cap(d.name);
    d.spec = cap(d.spec);
    d.path = cap(d.path);
  }
  for (const f of p.files) f.path = cap(f.path);
  for (const t of p.tools) t.name = cap(t.name);
  for (const srv of p.servers) {
    srv.name = cap(srv.name);
    srv.path = cap(srv.path);
    if (srv.identifier) srv.identifier = cap(srv.identifier);
    if (srv.version) srv.version = cap(srv.version);
    if (srv.url) srv.url = cap(srv.url);
    if (srv.command) srv.command = cap(srv.command);
    srv.args = srv.args.slice(0, LIMITS.evidence_items).map(cap);
  }
  for (const key of ['base_models', 'datasets', 'tags'] as const) p[key] = p[key].map(cap);
  if (p.name) p.name = cap(p.name);
  if (p.version) p.version = cap(p.version);
  if (longNames) cuts.push({ what: `strings longer than ${LIMITS.item_string} characters`, total: longNames, kept: 0 });
  const scripts = Object.keys(p.scripts);
  if (scripts.length > LIMITS.scripts) {
    cuts.push({ what: 'scripts', total: scripts.length, kept: LIMITS.scripts });
    const kept: Record<string, string> = {};
    for (const k of scripts.slice(0, LIMITS.scripts)) kept[k] = p.scripts[k] ?? '';
    p.scripts = kept;
  }
  for (const [what, n, cap] of [
    ['aibom.dependencies', p.dependencies.filter((d) => d.path !== 'version').length, LIMITS.aibom_dependencies],
    ['aibom.tools', p.tools.length, LIMITS.aibom_tools],
    ['aibom.files', new Set(p.files.map((f) => f.path)).size, LIMITS.aibom_files],
  ] as const)
    if (n > cap) cuts.push({ what, total: n, kept: cap });
  return cuts;
}

/** A NUL or any UTF-16 surrogate (paired or not): a single character class, linear. */
const NUL_OR_SURROGATE = /[\u0000\ud800-\udfff]/;

/**
 * A string Postgres text/jsonb can store and encodeURIComponent accepts: NUL and lone UTF-16 surrogates become U+FFFD
 * (a JSON manifest can carry both as `\u0000` / `\ud800` escapes).
 */
export function storableString(s: string): string {
  // most strings carry neither: one scan by the regex engine, then the loop below only for those that do
  if (!NUL_OR_SURROGATE.test(s)) return s;
  let out: string[] | null = null;
  let keep = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let bad = c === 0;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else bad = true;
    } else if (c >= 0xdc00 && c <= 0xdfff) bad = true;
    if (bad) {
      (out ??= []).push(s.slice(keep, i), '\uFFFD');
      keep = i + 1;
    }
  }
  if (!out) return s;
  out.push(s.slice(keep));
  return out.join('');
}

/** `s` cut to `max` characters (a cut never splits a surrogate pair), marked with an ellipsis. */
export function capString(s: string, max: number = LIMITS.output_string): string {
  if (s.length <= max) return s;
  let end = max;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return s.slice(0, end) + '…';
}

/**
 * A copy of `v` fit for storage and for serving: strings made storable and capped, arrays capped at `maxItems`,
 * nesting below `maxDepth` replaced by "[truncated]". The recursion stops at `maxDepth`, so hostile nesting cannot overflow
 * the stack.
 */
export function storable(
  v: unknown,
  opts: { maxItems?: number; maxDepth?: number; maxString?: number } = {},
  depth = 0,
): unknown {
  const maxDepth = opts.maxDepth ?? 64;
  if (typeof v === 'string') return capString(storableString(v), opts.maxString ?? LIMITS.output_string);
  if (v === null || typeof v !== 'object') return typeof v === 'number' && !Number.isFinite(v) ? null : v;
  if (depth >= maxDepth) return '[truncated]';
  if (Array.isArray(v)) {
    const items = opts.maxItems !== undefined && v.length > opts.maxItems ? v.slice(0, opts.maxItems) : v;
    return items.map((x) => storable(x, opts, depth + 1));
  }
  // fromEntries defines every key: `out[k] = …` would turn a `__proto__` key into the copy's prototype
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [storableString(k), storable(x, opts, depth + 1)]));
}
