import YAML from 'yaml';
import {
  isCompose,
  isExtensionManifest,
  isNotebook,
  looksLikeDockerfile,
  looksLikeSetupCfg,
  parseCompose,
  parseDockerfile,
  parseExtension,
  parseIni,
  parseNotebook,
  stripJsonc,
  isUrlRequirement,
} from './formats';
import { classifierLicense } from './license';
import type { Dependency, EnrichmentInput, McpServerEntry, ModelFile, ParsedManifest, ToolDef } from './types';
import { capParsed, LIMITS } from './limits';
import { cutFromMarker, hasLineTerminator, isObj, isSpaceChar, str, strList, type Obj } from './util';

// smol-toml ships a CJS build (exports.require) but its typings are ESM-only, so load it with require.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parse: parseToml } = require('smol-toml') as { parse: (s: string) => unknown };

const FRONT_MATTER = /^\uFEFF?\s*---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
// Every pattern here runs on tenant content: each is linear in V8 (checked by `pnpm check:redos`; the rewrites and
// their timings are in docs/security.md "Linear-time parsing and caps").
// A table header alone on its line (after blanks). Was `^\s*\[` with /m: `\s*` crossed line breaks, so every line
// start rescanned the blank lines below it (quadratic on a run of newlines).
export const TOML_HINT = /^[^\S\n\r\u2028\u2029]*\[(?:project|tool\.[\w-]+|build-system|package|dependencies)\]/m;
// the directive keyword only; the value is cut off by `modelfileDirective` (was `\b\s*(.*)$`, quadratic on blanks)
const MODELFILE_KEYWORD = /^\s*(FROM|PARAMETER|SYSTEM|TEMPLATE|ADAPTER|LICENSE|MESSAGE|REQUIRES)\b/i;
// PEP 508 line. The blanks around the optional extras were two adjacent `[ \t]*` (quadratic); the extras group now
// carries its own trailing blanks, which matches the same lines with the same captures.
export const REQ_LINE =
  /^([A-Za-z0-9][A-Za-z0-9._-]*)[ \t]*(?:(\[[^\]]*\])[ \t]*)?((?:(?:===|==|>=|<=|~=|!=|<|>)[ \t]*[^\s,;#=<>~!]+[ \t]*(?:,[ \t]*)?)*)(?:;[^#]*)?(?:#.*)?$/;
const FILE_NAME_LINE =
  /^[\w./@+-]+\.(?:bin|pt|pth|pkl|pickle|ckpt|joblib|dill|safetensors|gguf|ggml|onnx|h5|keras|pb|npy|npz|json|md|txt|py|model|tflite|mlmodel|msgpack|so|dll|dylib|zip|tar|gz)$/i;
const PATH_LINE = /^[\w./@+-]+$/;
const WEIGHT_FILE =
  /\.(?:bin|pt|pth|pkl|pickle|ckpt|joblib|dill|safetensors|gguf|ggml|onnx|h5|keras|tflite|mlmodel|msgpack)$/i;
const YAML_FIRST_LINE = /^[\w."'-]+\s*:(\s|$)/;
// `license` + blanks + an id. Was `licen[sc]e\s*[:\]]?\s*\n*\s*\[?|#\s*licen[sc]e\s*\n+\s*\[?`: three adjacent blank runs
// (4th-degree backtracking: `license` + a few hundred newlines held a worker for minutes). `\s*(?:[:\]]\s*)?` is the same
// language with one way to match it, and the `# License` heading alternative is covered by the `license` one at the
// next position (same captured id).
export const PROSE_LICENSE =
  /\b(?:licen[sc]ed?\s+(?:under\s+)?(?:the\s+)?|licen[sc]e\s*(?:[:\]]\s*)?\[?)(MIT|Apache(?:[- ]License)?[ ,-]*(?:Version\s*)?2\.0|Apache-2\.0|GPL-?[23]\.0|AGPL-?3\.0|LGPL-?[23]\.[01]|BSD-[23]-Clause|CC[- ]BY(?:[- ](?:NC|SA|ND))*[- ][1-4]\.0|OpenRAIL(?:-M)?|Llama ?[234](?:\.\d)?(?: Community)? License)/i;

/** `target.push(...items)` without the spread: a 1 MiB manifest can list more items than a call takes arguments. */
function append<T>(target: T[], items: readonly T[]): void {
  for (const x of items) target.push(x);
}

export function emptyParsed(): ParsedManifest {
  return {
    kind: 'empty',
    format: 'none',
    parse_errors: [],
    name: null,
    version: null,
    description: null,
    licenses: [],
    license_name: null,
    license_text: null,
    card: null,
    body: null,
    base_models: [],
    base_model_relation: null,
    datasets: [],
    tags: [],
    pipeline_tag: null,
    library_name: null,
    model_index: null,
    config: null,
    files: [],
    dependencies: [],
    servers: [],
    tools: [],
    scripts: {},
    modelfile: null,
    repository_url: null,
    homepage: null,
    mcp_name: null,
    authors: [],
    pickle_imports: [],
    chat_template: null,
    keras_config: null,
    custom_ops: [],
    commit: null,
    raw_json: null,
    truncated: [],
  };
}

function licenseFromValue(v: unknown, depth = 0): string[] {
  if (typeof v === 'string') return v.trim() ? [v.trim()] : [];
  // nested lists are not a licence shape; the bound keeps `[[[…]]]` from overflowing the stack
  if (Array.isArray(v)) return depth > 2 ? [] : v.slice(0, 20).flatMap((x) => licenseFromValue(x, depth + 1));
  if (isObj(v)) {
    const s = str(v.type) ?? str(v.text) ?? str(v.id) ?? str(v.name) ?? str(v.spdx_id);
    return s && s.length < 120 ? [s] : [];
  }
  return [];
}

function filesFrom(v: unknown): ModelFile[] {
  if (!Array.isArray(v)) return [];
  const out: ModelFile[] = [];
  for (const f of v) {
    if (typeof f === 'string') out.push({ path: f });
    else if (isObj(f)) {
      const p = str(f.path) ?? str(f.rfilename) ?? str(f.name) ?? str(f.filename);
      if (!p) continue;
      const mf: ModelFile = { path: p };
      if (typeof f.size === 'number') mf.size = f.size;
      const lfs = isObj(f.lfs) ? f.lfs : null;
      const sha = str(f.sha256) ?? (lfs ? (str(lfs.sha256) ?? str(lfs.oid)) : null);
      if (sha && /^[0-9a-f]{64}$/i.test(sha)) mf.sha256 = sha.toLowerCase();
      out.push(mf);
    }
  }
  return out;
}

function depsFromNpm(v: unknown, path: string): Dependency[] {
  if (!isObj(v)) return [];
  return Object.keys(v)
    .sort()
    .map((k) => ({
      ecosystem: 'npm' as const,
      name: k,
      spec: typeof v[k] === 'string' ? (v[k] as string) : '*',
      path: `${path}.${k}`,
    }));
}

export function parsePep508(line: string, path: string): Dependency | null {
  const s = cutFromMarker(line, '#').trim();
  if (!s || s.startsWith('-')) return null;
  const m = REQ_LINE.exec(s);
  if (!m || !m[1]) return null;
  return {
    ecosystem: 'pypi',
    name: m[1].toLowerCase().replace(/[._]+/g, '-'),
    spec: (m[3] ?? '').replace(/\s+/g, '').replace(/,$/, ''),
    path,
  };
}

function toolsFrom(v: unknown, server?: string): ToolDef[] {
  if (!Array.isArray(v)) return [];
  const out: ToolDef[] = [];
  for (const t of v) {
    if (!isObj(t)) continue;
    const name = str(t.name);
    if (!name) continue;
    const td: ToolDef = {
      name,
      description: typeof t.description === 'string' ? t.description : '',
      inputSchema: t.inputSchema ?? t.input_schema ?? null,
      annotations: isObj(t.annotations) ? t.annotations : null,
    };
    if (server) td.server = server;
    out.push(td);
  }
  return out;
}

function envFrom(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObj(v))
    for (const k of Object.keys(v))
      out[k] = typeof v[k] === 'string' ? (v[k] as string) : v[k] === null || v[k] === undefined ? '' : String(v[k]);
  return out;
}

function serverEntry(name: string, path: string): McpServerEntry {
  return {
    name,
    path,
    command: null,
    args: [],
    env: {},
    url: null,
    transport: null,
    headers: {},
    registry: null,
    identifier: null,
    version: null,
    secretEnv: [],
  };
}

function argValues(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (const a of v) {
    if (typeof a === 'string') out.push(a);
    else if (isObj(a)) {
      const n = str(a.name);
      const val = str(a.value) ?? str(a.default) ?? str(a.valueHint) ?? str(a.value_hint);
      if (n && n.startsWith('-')) out.push(n);
      if (val) out.push(val);
    }
  }
  return out;
}

function parseClientServers(p: ParsedManifest, servers: Obj, base: string): void {
  for (const name of Object.keys(servers).sort()) {
    const s = servers[name];
    if (!isObj(s)) continue;
    const e = serverEntry(name, `${base}.${name}`);
    e.command = str(s.command);
    e.args = strList(s.args);
    e.env = envFrom(s.env);
    e.url = str(s.url) ?? str(s.serverUrl);
    e.transport = str(s.type) ?? str(s.transport) ?? (e.url ? 'http' : 'stdio');
    e.headers = envFrom(s.headers);
    p.servers.push(e);
    append(p.tools, toolsFrom(s.tools, name));
  }
}

function parseRegistryServer(p: ParsedManifest, j: Obj): void {
  p.kind = 'mcp_server_json';
  p.name = str(j.name);
  p.description = str(j.description);
  const vd = isObj(j.version_detail) ? j.version_detail : null;
  p.version = str(j.version) ?? (vd ? str(vd.version) : null);
  const repo = isObj(j.repository) ? j.repository : null;
  p.repository_url = repo ? str(repo.url) : null;
  p.homepage = str(j.websiteUrl) ?? str(j.website_url);
  p.mcp_name = p.name;
  const pkgs = Array.isArray(j.packages) ? j.packages : [];
  pkgs.forEach((pk, i) => {
    if (!isObj(pk)) return;
    const e = serverEntry(str(pk.identifier) ?? str(pk.name) ?? `package-${i}`, `packages[${i}]`);
    e.registry = str(pk.registryType) ?? str(pk.registry_type) ?? str(pk.registry_name);
    e.identifier = str(pk.identifier) ?? str(pk.name);
    e.version = str(pk.version);
    e.command = str(pk.runtimeHint) ?? str(pk.runtime_hint);
    e.args = [
      ...argValues(pk.runtimeArguments ?? pk.runtime_arguments),
      ...argValues(pk.packageArguments ?? pk.package_arguments),
    ];
    const tr = isObj(pk.transport) ? pk.transport : null;
    e.transport = tr ? str(tr.type) : 'stdio';
    e.url = tr ? str(tr.url) : null;
    const evs = pk.environmentVariables ?? pk.environment_variables;
    if (Array.isArray(evs)) {
      for (const ev of evs) {
        if (!isObj(ev)) continue;
        const n = str(ev.name);
        if (!n) continue;
        e.env[n] = str(ev.value) ?? str(ev.default) ?? '';
        if (ev.isSecret === true || ev.is_secret === true) e.secretEnv.push(n);
      }
    }
    p.servers.push(e);
    if (e.registry === 'npm' && e.identifier)
      p.dependencies.push({ ecosystem: 'npm', name: e.identifier, spec: e.version ?? '*', path: `packages[${i}]` });
    if (e.registry === 'pypi' && e.identifier)
      p.dependencies.push({
        ecosystem: 'pypi',
        name: e.identifier.toLowerCase(),
        spec: e.version ? `==${e.version}` : '',
        path: `packages[${i}]`,
      });
  });
  const remotes = Array.isArray(j.remotes) ? j.remotes : [];
  remotes.forEach((r, i) => {
    if (!isObj(r)) return;
    const e = serverEntry(`remote-${i}`, `remotes[${i}]`);
    e.url = str(r.url);
    e.transport = str(r.type) ?? 'streamable-http';
    if (Array.isArray(r.headers))
      for (const h of r.headers)
        if (isObj(h) && str(h.name)) {
          e.headers[str(h.name) as string] = str(h.value) ?? '';
          if (h.isSecret === true) e.secretEnv.push(str(h.name) as string);
        }
    p.servers.push(e);
  });
  append(p.tools, toolsFrom(j.tools));
}

function parseNpm(p: ParsedManifest, j: Obj): void {
  p.kind = 'npm_package';
  p.name = str(j.name);
  p.version = str(j.version);
  p.description = str(j.description);
  p.licenses = licenseFromValue(j.license ?? j.licenses);
  p.mcp_name = str(j.mcpName);
  const repo = j.repository;
  p.repository_url = typeof repo === 'string' ? repo : isObj(repo) ? str(repo.url) : null;
  p.homepage = str(j.homepage);
  const author = j.author;
  p.authors =
    typeof author === 'string' ? [author] : isObj(author) && str(author.name) ? [str(author.name) as string] : [];
  append(p.dependencies, depsFromNpm(j.dependencies, 'dependencies'));
  append(p.dependencies, depsFromNpm(j.peerDependencies, 'peerDependencies'));
  append(p.dependencies, depsFromNpm(j.optionalDependencies, 'optionalDependencies'));
  if (isObj(j.scripts))
    for (const k of Object.keys(j.scripts)) if (typeof j.scripts[k] === 'string') p.scripts[k] = j.scripts[k] as string;
}

function parsePyproject(p: ParsedManifest, t: Obj): void {
  p.kind = 'pyproject';
  const proj = isObj(t.project) ? t.project : null;
  const tool = isObj(t.tool) ? t.tool : null;
  const poetry = tool && isObj(tool.poetry) ? tool.poetry : null;
  const src = proj ?? poetry;
  if (!src) return;
  p.name = str(src.name);
  p.version = str(src.version);
  p.description = str(src.description);
  p.licenses = licenseFromValue(src.license);
  if (p.licenses.length === 0 && Array.isArray(src.classifiers)) {
    // trove classifiers name the licence (issue 18 item 5): mapped to SPDX, not reported as non-SPDX text
    const trove = classifierLicense(strList(src.classifiers));
    if (trove) p.licenses.push(trove);
  }
  p.authors = Array.isArray(src.authors)
    ? src.authors.map((a) => (isObj(a) ? str(a.name) : str(a))).filter((x): x is string => !!x)
    : [];
  const urls = isObj(src.urls) ? src.urls : null;
  if (urls) {
    for (const k of Object.keys(urls)) if (/repo|source|code/i.test(k)) p.repository_url = str(urls[k]);
    for (const k of Object.keys(urls)) if (/home/i.test(k)) p.homepage = str(urls[k]);
  }
  if (proj)
    strList(proj.dependencies).forEach((d, i) => {
      const dep = parsePep508(d, `project.dependencies[${i}]`);
      if (dep) p.dependencies.push(dep);
    });
  if (poetry && isObj(poetry.dependencies)) {
    for (const k of Object.keys(poetry.dependencies).sort()) {
      if (k === 'python') continue;
      const v = poetry.dependencies[k];
      const spec = typeof v === 'string' ? v : isObj(v) ? (str(v.version) ?? '') : '';
      p.dependencies.push({ ecosystem: 'pypi', name: k.toLowerCase(), spec, path: `tool.poetry.dependencies.${k}` });
    }
  }
}

/** "fine-tuned from org/model", "distilled from …", "quantized version of …", "based on …": bounded gaps, linear. */
const PROSE_LINEAGE =
  /\b(fine-?tuned[ \t]{1,3}(?:from|on|version[ \t]{1,3}of)|distilled[ \t]{1,3}from|quanti[sz]ed[ \t]{1,3}(?:version[ \t]{1,3}of|from)|based[ \t]{1,3}on)[ \t]{1,3}[[`*]{0,2}(?:https:\/\/huggingface\.co\/)?([A-Za-z0-9][\w.-]{0,95}\/[A-Za-z0-9][\w.-]{0,95})/i;

function parseModelIndexCard(p: ParsedManifest, fm: Obj, body: string): void {
  p.card = fm;
  p.body = body;
  p.licenses = licenseFromValue(fm.license);
  p.license_name = str(fm.license_name);
  p.base_models = strList(fm.base_model);
  p.base_model_relation = str(fm.base_model_relation);
  p.datasets = strList(fm.datasets);
  if (p.base_models.length === 0) {
    // lineage stated in prose (issue 18 item 6): only a resolvable owner/name id, never a bare family name
    const m = PROSE_LINEAGE.exec(body.slice(0, 20_000));
    if (m?.[2]) {
      p.base_models = [m[2].endsWith('.') ? m[2].slice(0, -1) : m[2]];
      p.base_model_relation = p.base_model_relation ?? (/quanti/i.test(m[1] ?? '') ? 'quantized' : 'finetune');
    }
  }
  p.tags = strList(fm.tags);
  p.pipeline_tag = str(fm.pipeline_tag);
  p.library_name = str(fm.library_name);
  p.model_index = fm['model-index'] ?? null;
  const mf = str(fm.model_file);
  if (mf) p.files.push({ path: mf });
  if (typeof fm.chat_template === 'string') p.chat_template = fm.chat_template;
}

function parseModelfile(p: ParsedManifest, text: string): boolean {
  const lines = text.split(/\r?\n/);
  let from: string | null = null;
  const mf = {
    from: null as string | null,
    adapters: [] as string[],
    system: null as string | null,
    template: null as string | null,
    license: null as string | null,
    parameters: {} as Record<string, string>,
  };
  let directives = 0;
  let i = 0;
  const readValue = (first: string): string => {
    const t = first.trim();
    if (t.startsWith('"""')) {
      let acc = t.slice(3);
      if (acc.endsWith('"""') && acc.length >= 3) return acc.slice(0, -3);
      while (++i < lines.length) {
        const l = lines[i] ?? '';
        const end = l.indexOf('"""');
        if (end >= 0) {
          acc += '\n' + l.slice(0, end);
          break;
        }
        acc += '\n' + l;
      }
      return acc.trim();
    }
    return t.replace(/^"(.*)"$/, '$1');
  };
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const m = modelfileDirective(line);
    if (!m) continue;
    directives++;
    const d = m.keyword.toUpperCase();
    const v = readValue(m.value);
    if (d === 'FROM') from = from ?? v;
    else if (d === 'ADAPTER') mf.adapters.push(v);
    else if (d === 'SYSTEM') mf.system = v;
    else if (d === 'TEMPLATE') mf.template = v;
    else if (d === 'LICENSE') mf.license = v;
    else if (d === 'PARAMETER') {
      const [k, ...rest] = v.split(/\s+/);
      if (k) mf.parameters[k] = rest.join(' ');
    }
  }
  if (!from || directives < 1) return false;
  mf.from = from;
  p.kind = 'modelfile';
  p.format = 'text';
  p.modelfile = mf;
  p.license_text = mf.license;
  // `LICENSE MIT` / `LICENSE """Apache 2.0"""`: a one-line value is an identifier, a longer one the licence text
  if (mf.license && mf.license.length <= 60 && !mf.license.includes('\n')) {
    p.licenses = [mf.license];
    p.license_text = null;
  }
  if (/\.(gguf|bin|safetensors|pt|pth)$/i.test(from)) p.files.push({ path: from });
  else p.base_models.push(from);
  for (const a of mf.adapters) p.files.push({ path: a });
  if (mf.template) p.chat_template = mf.template;
  return true;
}

/**
 * YAML nesting depth, over-estimated in one pass: open `[`/`{` (quotes not considered) or block levels (indentation
 * stack) plus compact `- `/`? ` items on one line. The `yaml` parser recurses per level: a few thousand levels
 * overflow its stack, and some deep shapes (`- - - …`, a run of `[`) took seconds or killed the process with a
 * RegExp-compiler out-of-memory (measured with yaml 2.x, docs/security.md).
 */
export function yamlNestingExceeds(text: string, max: number): boolean {
  let flow = 0;
  const indents: number[] = [];
  let i = 0;
  while (i < text.length) {
    // one line: indentation, compact indicators, then its brackets
    let col = 0;
    while (text[i] === ' ' || text[i] === '\t') {
      i++;
      col++;
    }
    let compact = 0;
    while ((text[i] === '-' || text[i] === '?') && (text[i + 1] === ' ' || text[i + 1] === '\t')) {
      compact++;
      i += 2;
    }
    const blank = i >= text.length || text[i] === '\n' || text[i] === '\r';
    if (!blank || compact) {
      while (indents.length && (indents[indents.length - 1] ?? 0) >= col) indents.pop();
      indents.push(col);
    }
    if (indents.length + compact > max) return true;
    for (; i < text.length && text[i] !== '\n'; i++) {
      const ch = text[i];
      if (ch === '[' || ch === '{') {
        if (++flow > max) return true;
      } else if ((ch === ']' || ch === '}') && flow > 0) flow--;
    }
    i++;
  }
  return false;
}

/** YAML.parse under the engine's bounds: 50 aliases (billion laughs), LIMITS.yaml_nesting levels, LIMITS.yaml_chars. */
function parseYaml(text: string): unknown {
  if (text.length > LIMITS.yaml_chars) throw new Error(`YAML longer than ${LIMITS.yaml_chars} characters`);
  if (yamlNestingExceeds(text, LIMITS.yaml_nesting))
    throw new Error(`YAML nested deeper than ${LIMITS.yaml_nesting} levels`);
  return YAML.parse(text, { maxAliasCount: 50 });
}

/**
 * `KEYWORD value` of a Modelfile line: what `/^\s*(FROM|…)\b\s*(.*)$/i` captured, without its backtracking — the value
 * is the rest after the keyword and its blanks, and the line matches only if that rest has no line break (`.` stops
 * at one).
 */
export function modelfileDirective(line: string): { keyword: string; value: string } | null {
  const m = MODELFILE_KEYWORD.exec(line);
  if (!m || !m[1]) return null;
  let i = m[0].length;
  while (i < line.length && isSpaceChar(line[i])) i++;
  const value = line.slice(i);
  return hasLineTerminator(value) ? null : { keyword: m[1], value };
}

const VERSION_OPERATORS = ['===', '==', '>=', '<=', '~=', '!=', '<', '>'];
function operatorAt(s: string, i: number): string | null {
  for (const op of VERSION_OPERATORS) if (s.startsWith(op, i)) return op;
  return null;
}

/**
 * Every version operator removed with the blanks on both sides, in one pass: the global replace of
 * `\s*(===|==|>=|<=|~=|!=|<|>)\s*` it stands for rescanned a run of blanks from each of its positions when no operator
 * followed (quadratic).
 */
export function removeVersionOperators(s: string): string {
  const parts: string[] = [];
  let keep = 0;
  let i = 0;
  while (i < s.length) {
    let j = i;
    while (j < s.length && isSpaceChar(s[j])) j++;
    const op = operatorAt(s, j);
    if (op) {
      parts.push(s.slice(keep, i));
      j += op.length;
      while (j < s.length && isSpaceChar(s[j])) j++;
      i = keep = j;
    } else i = j > i ? j : i + 1;
  }
  parts.push(s.slice(keep));
  return parts.join('');
}

function proseLicense(text: string): string | null {
  const m = PROSE_LICENSE.exec(text);
  if (!m || !m[1]) return null;
  const l = m[1].replace(/\s+/g, ' ');
  if (/^mit$/i.test(l)) return 'MIT';
  if (/apache/i.test(l)) return 'Apache-2.0';
  return l;
}

function classifyJson(p: ParsedManifest, j: unknown, input: EnrichmentInput): void {
  p.format = 'json';
  p.raw_json = j;
  if (Array.isArray(j)) {
    if (
      j.every(
        (x) => typeof x === 'string' || (isObj(x) && (typeof x.path === 'string' || typeof x.rfilename === 'string')),
      )
    ) {
      p.kind = 'file_listing';
      append(p.files, filesFrom(j));
    } else if (j.some((x) => isObj(x) && typeof x.name === 'string' && ('inputSchema' in x || 'description' in x))) {
      p.kind = 'mcp_tools';
      append(p.tools, toolsFrom(j));
    } else p.kind = 'json';
    return;
  }
  if (!isObj(j)) {
    p.kind = 'json';
    return;
  }
  if (isExtensionManifest(j)) {
    parseExtension(p, j);
    return;
  }
  if (isNotebook(j)) {
    parseNotebook(p, j);
    return;
  }
  const servers = isObj(j.mcpServers)
    ? j.mcpServers
    : isObj(j.mcp_servers)
      ? j.mcp_servers
      : isObj(j.servers) &&
          !Array.isArray(j.servers) &&
          Object.values(j.servers).some((s) => isObj(s) && ('command' in s || 'url' in s))
        ? j.servers
        : null;
  const schemaStr = str(j.$schema) ?? '';
  if (servers && !('packages' in j)) {
    p.kind = input.asset_type === 'agent' || 'agents' in j || 'model' in j ? 'agent_config' : 'mcp_client_config';
    parseClientServers(
      p,
      servers,
      isObj(j.mcpServers) ? 'mcpServers' : isObj(j.mcp_servers) ? 'mcp_servers' : 'servers',
    );
    if (p.kind === 'agent_config') parseAgentExtras(p, j);
    return;
  }
  if (isObj(j.weight_map)) {
    p.kind = 'weight_index';
    const seen = new Set<string>();
    for (const k of Object.keys(j.weight_map)) {
      const f = j.weight_map[k];
      if (typeof f === 'string') seen.add(f);
    }
    for (const f of [...seen].sort()) p.files.push({ path: f });
    return;
  }
  if (
    /modelcontextprotocol/.test(schemaStr) ||
    ((Array.isArray(j.packages) || Array.isArray(j.remotes)) &&
      typeof j.name === 'string' &&
      (j.name.includes('/') || 'version_detail' in j))
  ) {
    parseRegistryServer(p, j);
    return;
  }
  if (('dxt_version' in j || 'manifest_version' in j) && (isObj(j.server) || isObj(j.mcp))) {
    p.kind = 'mcpb_manifest';
    p.name = str(j.name);
    p.version = str(j.version);
    p.description = str(j.description);
    p.licenses = licenseFromValue(j.license);
    // early DXT manifests put the launch under `mcp` with `command: {type, path}` (a shipped binary)
    const srv = isObj(j.server) ? j.server : {};
    const mc = isObj(srv.mcp_config) ? srv.mcp_config : isObj(j.mcp) ? j.mcp : {};
    const e = serverEntry(p.name ?? 'server', isObj(j.server) ? 'server.mcp_config' : 'mcp');
    e.command = str(mc.command) ?? (isObj(mc.command) ? str(mc.command.path) : null);
    e.args = strList(mc.args);
    e.env = envFrom(mc.env);
    e.transport = 'stdio';
    p.servers.push(e);
    append(p.tools, toolsFrom(j.tools));
    const repo = j.repository;
    p.repository_url = isObj(repo) ? str(repo.url) : str(repo);
    const author = isObj(j.author) ? str(j.author.name) : str(j.author);
    if (author) p.authors = [author];
    return;
  }
  if (typeof j._class_name === 'string' && '_diffusers_version' in j) {
    // diffusers model_index.json: the pipeline class and its components
    p.kind = 'hf_config';
    p.config = {
      architectures: [j._class_name],
      model_type: 'diffusers',
      name_or_path: str(j._name_or_path),
      auto_map: null,
      transformers_version: null,
    };
    return;
  }
  if ('auto_map' in j || 'architectures' in j || ('model_type' in j && !('name' in j))) {
    p.kind = 'hf_config';
    p.config = {
      architectures: strList(j.architectures),
      model_type: str(j.model_type),
      name_or_path: str(j._name_or_path),
      auto_map: isObj(j.auto_map) ? j.auto_map : null,
      transformers_version: str(j.transformers_version),
    };
    if (typeof j.custom_ops_library === 'string') p.custom_ops.push(j.custom_ops_library);
    return;
  }
  const agentish =
    input.asset_type === 'agent' ||
    'agents' in j ||
    'instructions' in j ||
    'system_prompt' in j ||
    ('model' in j && typeof j.model === 'string');
  if (Array.isArray(j.tools) && !agentish && !('name' in j && 'version' in j && 'dependencies' in j)) {
    p.kind = 'mcp_tools';
    append(p.tools, toolsFrom(j.tools));
    return;
  }
  if (isObj(j.result) && Array.isArray(j.result.tools)) {
    p.kind = 'mcp_tools';
    append(p.tools, toolsFrom(j.result.tools));
    return;
  }
  if (typeof j.class_name === 'string' && 'config' in j) {
    p.kind = 'keras_config';
    p.keras_config = j;
    return;
  }
  if (typeof j.chat_template === 'string' || Array.isArray(j.chat_template)) {
    p.kind = 'tokenizer_config';
    p.chat_template = typeof j.chat_template === 'string' ? j.chat_template : JSON.stringify(j.chat_template);
    return;
  }
  if (isObj(j.model) && (isObj(j.model.decoder) || 'custom_ops_library' in j.model || 'custom_ops_library' in j)) {
    p.kind = 'onnx_genai_config';
    const co = str(j.custom_ops_library) ?? str(j.model.custom_ops_library);
    if (co) p.custom_ops.push(co);
    return;
  }
  if (
    typeof j.name === 'string' &&
    ('version' in j || 'dependencies' in j || 'scripts' in j || 'devDependencies' in j)
  ) {
    parseNpm(p, j);
    return;
  }
  if ('agents' in j || 'instructions' in j || 'system_prompt' in j || input.asset_type === 'agent') {
    p.kind = 'agent_config';
    parseAgentExtras(p, j);
    return;
  }
  p.kind = 'json';
  genericNameVersion(p, j);
}

/** setup.cfg: name, version, licence (field or trove classifier), install_requires. */
function parseSetupCfg(p: ParsedManifest, text: string): void {
  p.kind = 'setup_cfg';
  p.format = 'text';
  const ini = parseIni(text);
  const md = ini.metadata ?? {};
  p.name = md.name ?? null;
  p.version = md.version ?? null;
  p.description = md.description ?? null;
  const lic = md.license ?? md.license_expression;
  if (lic) p.licenses = [lic.slice(0, LIMITS.item_string)];
  else {
    const trove = classifierLicense((md.classifiers ?? '').split('\n'));
    if (trove) p.licenses = [trove];
  }
  const reqs = (ini.options?.install_requires ?? '').split('\n');
  reqs.forEach((l, i) => {
    const d = parsePep508(l, `options.install_requires[${i}]`);
    if (d && p.dependencies.length < LIMITS.dependencies) p.dependencies.push(d);
  });
}

function genericNameVersion(p: ParsedManifest, j: Obj): void {
  p.name = p.name ?? str(j.name);
  p.version = p.version ?? str(j.version);
  if (p.licenses.length === 0) p.licenses = licenseFromValue(j.license);
  if (p.files.length === 0) append(p.files, filesFrom(j.files ?? j.siblings));
}

function parseAgentExtras(p: ParsedManifest, j: Obj): void {
  genericNameVersion(p, j);
  append(p.tools, toolsFrom(j.tools));
  const agents = Array.isArray(j.agents) ? j.agents : isObj(j.agents) ? Object.values(j.agents) : [];
  for (const a of agents) {
    if (!isObj(a)) continue;
    append(p.tools, toolsFrom(a.tools, str(a.name) ?? undefined));
    const m = str(a.model);
    if (m) p.base_models.push(m);
  }
  const model = str(j.model);
  if (model) p.base_models.push(model);
}

function parseText(p: ParsedManifest, text: string, input: EnrichmentInput): void {
  const fmMatch = FRONT_MATTER.exec(text);
  if (fmMatch) {
    p.format = 'markdown';
    p.kind = input.asset_type === 'dataset' ? 'hf_dataset_card' : 'hf_model_card';
    let fm: unknown = null;
    try {
      fm = parseYaml(fmMatch[1] ?? '');
    } catch (e) {
      p.parse_errors.push(`front matter: ${(e as Error).message.split('\n')[0] ?? 'invalid YAML'}`);
    }
    const body = text.slice(fmMatch[0].length);
    if (isObj(fm) && isObj(fm.mcpServers)) {
      p.kind = 'agent_config';
      parseClientServers(p, fm.mcpServers, 'mcpServers');
      return;
    }
    parseModelIndexCard(p, isObj(fm) ? fm : {}, body);
    if (p.licenses.length === 0) {
      const pl = proseLicense(body);
      if (pl) {
        p.licenses = [pl];
        p.license_text = 'prose';
      }
    }
    return;
  }
  const trimmed = text.trimStart();
  if (TOML_HINT.test(text)) {
    try {
      const t = parseToml(text) as Obj;
      p.format = 'toml';
      p.raw_json = t;
      if (isObj(t.project) || (isObj(t.tool) && isObj(t.tool.poetry))) parsePyproject(p, t);
      else {
        p.kind = 'toml';
        genericNameVersion(p, isObj(t.package) ? { ...t, ...t.package } : t);
      } // Cargo-style [package]
      return;
    } catch (e) {
      p.parse_errors.push(`toml: ${(e as Error).message.split('\n')[0] ?? 'invalid TOML'}`);
    }
  }
  const textLines = text.split(/\r?\n/); // split once: a 1 MiB run of newlines is a million lines
  const firstLine = (textLines.find((l) => l.trim() !== '' && !l.trim().startsWith('#')) ?? '').trim();
  if (looksLikeDockerfile(text, firstLine)) {
    parseDockerfile(p, text);
    return;
  }
  if (looksLikeSetupCfg(text)) {
    parseSetupCfg(p, text);
    return;
  }
  if (
    /^(?:FROM|from)\s+\S+$/.test(firstLine) ||
    (/^[A-Z]+\s/.test(firstLine) && modelfileDirective(firstLine) !== null && /^FROM\s+\S+\s*$/m.test(text))
  ) {
    if (parseModelfile(p, text)) return;
  }
  const lines = textLines.map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  // a repository listing: every line one path, with at least one model-weight file (extension-less entries such as
  // `latest` and config files like `.yaml` included); checked before requirements, whose bare names look alike
  if (
    lines.length > 0 &&
    (lines.every((l) => FILE_NAME_LINE.test(l)) ||
      (lines.length >= 3 && lines.every((l) => PATH_LINE.test(l)) && lines.some((l) => WEIGHT_FILE.test(l))))
  ) {
    p.kind = 'file_listing';
    p.format = 'text';
    append(
      p.files,
      lines.map((l) => ({ path: l })),
    );
    return;
  }
  if (
    lines.length > 0 &&
    lines.length < 2000 &&
    lines.every((l) => l.startsWith('-') || REQ_LINE.test(l) || isUrlRequirement(l)) &&
    lines.some((l) => /[=<>~]/.test(l) || /^[a-z0-9][\w.-]*$/i.test(l) || isUrlRequirement(l)) &&
    !lines.some(
      (l) =>
        !l.startsWith('-') &&
        !isUrlRequirement(l) &&
        /\s/.test(cutFromMarker(cutFromMarker(removeVersionOperators(l), ';'), '#').trim()),
    )
  ) {
    p.kind = 'requirements';
    p.format = 'text';
    const urls: Array<{ line: string; path: string; editable: boolean }> = [];
    textLines.forEach((l, i) => {
      const t = cutFromMarker(l, ' #').trim();
      if (isUrlRequirement(t)) {
        if (urls.length < LIMITS.dependencies)
          urls.push({
            line: t.slice(0, LIMITS.item_string),
            path: `line ${i + 1}`,
            editable: /^(?:-e|--editable)/.test(t),
          });
        return;
      }
      const d = parsePep508(l, `line ${i + 1}`);
      if (d) p.dependencies.push(d);
    });
    p.url_requirements = urls;
    if (p.dependencies.length > 0 || urls.length > 0) return;
  }
  // the first line that is not a comment: compose files often open with a comment block
  if (YAML_FIRST_LINE.test(trimmed.split(/\r?\n/, 1)[0] ?? '') || YAML_FIRST_LINE.test(firstLine)) {
    try {
      const y: unknown = parseYaml(text);
      if (isObj(y)) {
        p.format = 'yaml';
        if (isCompose(y)) {
          parseCompose(p, y);
          return;
        }
        classifyJson(p, y, input);
        p.format = 'yaml';
        if (p.kind === 'json') {
          if ('license' in y || 'base_model' in y || 'model-index' in y || 'pipeline_tag' in y) {
            p.kind = input.asset_type === 'dataset' ? 'hf_dataset_card' : 'hf_model_card';
            parseModelIndexCard(p, y, '');
          } else p.kind = 'yaml';
        }
        return;
      }
    } catch (e) {
      p.parse_errors.push(`yaml: ${(e as Error).message.split('\n')[0] ?? 'invalid YAML'}`);
    }
  }
  p.format = /^#{1,6}\s/m.test(text) ? 'markdown' : 'text';
  p.kind =
    (input.asset_type === 'model' || input.asset_type === 'dataset') && p.format === 'markdown'
      ? input.asset_type === 'dataset'
        ? 'hf_dataset_card'
        : 'hf_model_card'
      : 'text';
  p.body = text;
  const pl = proseLicense(text);
  if (pl) {
    p.licenses = [pl];
    p.license_text = 'prose';
  }
  if (
    p.kind === 'text' &&
    /\blicen[sc]e\b/i.test(text.slice(0, 400)) &&
    /\b(grant|licensor|permission|redistribut)/i.test(text)
  )
    p.license_text = text.length > 4000 ? text.slice(0, 4000) : text;
  // a listing of file names, one a line
  if (p.kind === 'text' && lines.length > 0 && lines.every((l) => /^[\w./@+-]+\.[A-Za-z0-9]{1,12}$/.test(l))) {
    p.kind = 'file_listing';
    append(
      p.files,
      lines.map((l) => ({ path: l })),
    );
  }
}

/** Parse raw_manifest + metadata. Never throws (errors end up in parse_errors). */
export function parseManifest(input: EnrichmentInput): ParsedManifest {
  const p = emptyParsed();
  const raw = typeof input.raw_manifest === 'string' ? input.raw_manifest : '';
  try {
    if (raw.trim() !== '') {
      const t = raw.trimStart();
      if (t.startsWith('{') || t.startsWith('[')) {
        let j: unknown;
        let ok = true;
        try {
          j = JSON.parse(raw);
        } catch (e) {
          ok = false;
          p.parse_errors.push(`json: ${(e as Error).message}`);
        }
        // VS Code mcp.json is JSONC (comments, trailing commas): retried as plain JSON once stripped
        const plain = ok ? null : stripJsonc(raw);
        if (plain !== null) {
          try {
            j = JSON.parse(plain);
            ok = true;
            p.parse_errors.pop();
          } catch {
            // still not JSON: the text fallback below
          }
        }
        if (ok) classifyJson(p, j, input);
        else if (t.startsWith('[') && (TOML_HINT.test(raw) || looksLikeSetupCfg(raw))) {
          p.parse_errors.pop();
          parseText(p, raw, input);
        } else {
          p.kind = 'text';
          p.format = 'text';
          p.body = raw;
        }
      } else parseText(p, raw, input);
    }
  } catch (e) {
    p.parse_errors.push(`parser: ${(e as Error).message}`);
  }
  try {
    mergeMetadata(p, input.metadata ?? null);
  } catch (e) {
    p.parse_errors.push(`metadata: ${(e as Error).message}`);
  }
  p.truncated = capParsed(p);
  return p;
}

function mergeMetadata(p: ParsedManifest, md: Record<string, unknown> | null): void {
  if (!md || !isObj(md)) return;
  append(p.files, filesFrom(md.files ?? md.siblings));
  if (p.licenses.length === 0) p.licenses = licenseFromValue(md.license);
  if (p.base_models.length === 0) p.base_models = strList(md.base_model);
  p.base_model_relation = p.base_model_relation ?? str(md.base_model_relation);
  if (p.datasets.length === 0) p.datasets = strList(md.datasets);
  p.tags = p.tags.concat(strList(md.tags));
  p.pipeline_tag = p.pipeline_tag ?? str(md.pipeline_tag);
  p.library_name = p.library_name ?? str(md.library_name);
  p.commit = str(md.sha) ?? str(md.commit) ?? str(md.revision);
  const pi = md.pickle_imports ?? md.pickle_globals;
  if (Array.isArray(pi)) {
    for (const x of pi) {
      if (typeof x === 'string') p.pickle_imports.push(x.trim().replace(/\s+/, '.'));
      else if (isObj(x) && str(x.module)) p.pickle_imports.push(`${str(x.module)}.${str(x.name) ?? '*'}`);
    }
  }
  const gguf = isObj(md.gguf) ? md.gguf : null;
  const ct = str(md.chat_template) ?? (gguf ? str(gguf['tokenizer.chat_template']) : null);
  if (ct) p.chat_template = ct;
  if (md.keras_config !== undefined) p.keras_config = md.keras_config;
  if (Array.isArray(md.tools)) append(p.tools, toolsFrom(md.tools));
  const co = str(md.custom_ops_library);
  if (co) p.custom_ops.push(co);
  if (!p.repository_url) p.repository_url = str(md.repository) ?? str(md.repository_url);
}
