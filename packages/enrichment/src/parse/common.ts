// Shapes shared by every format reader: the empty ParsedManifest and the licence, file and tool lists they fill.
import type { ModelFile, ParsedManifest, ToolDef } from '../types';
import { LIMITS } from '../limits';
import { isObj, str, type Obj } from '../util';

/** Caps for what the container, extension and notebook readers keep (the general LIMITS hold the rest). */
export const MAX_COMMAND_TEXT = 64 * 1024;
export const MAX_PATTERNS = 200;

/** One extracted string cut to LIMITS.item_string. */
export const capItem = (s: string): string => (s.length > LIMITS.item_string ? s.slice(0, LIMITS.item_string) : s);

/** The strings of a list, at most MAX_PATTERNS of them, each capped. */
export const capItems = (v: unknown): string[] =>
  Array.isArray(v)
    ? v
        .filter((x): x is string => typeof x === 'string')
        .slice(0, MAX_PATTERNS)
        .map(capItem)
    : [];

/** `target.push(...items)` without the spread: a 1 MiB manifest can list more items than a call takes arguments. */
export function append<T>(target: T[], items: readonly T[]): void {
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

export function licenseFromValue(v: unknown, depth = 0): string[] {
  if (typeof v === 'string') return v.trim() ? [v.trim()] : [];
  // nested lists are not a licence shape; the bound keeps `[[[…]]]` from overflowing the stack
  if (Array.isArray(v)) return depth > 2 ? [] : v.slice(0, 20).flatMap((x) => licenseFromValue(x, depth + 1));
  if (isObj(v)) {
    const s = str(v.type) ?? str(v.text) ?? str(v.id) ?? str(v.name) ?? str(v.spdx_id);
    return s && s.length < 120 ? [s] : [];
  }
  return [];
}

export function filesFrom(v: unknown): ModelFile[] {
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

export function toolsFrom(v: unknown, server?: string): ToolDef[] {
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

export function genericNameVersion(p: ParsedManifest, j: Obj): void {
  p.name = p.name ?? str(j.name);
  p.version = p.version ?? str(j.version);
  if (p.licenses.length === 0) p.licenses = licenseFromValue(j.license);
  if (p.files.length === 0) append(p.files, filesFrom(j.files ?? j.siblings));
}
