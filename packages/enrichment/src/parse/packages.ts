// Package manifests: pyproject.toml (PEP 621, Poetry), uv.lock, setup.cfg, requirements*.txt (npm: packages-npm.ts).
// Every pattern here runs on tenant content: each is linear in V8 (checked by `pnpm check:redos`; the rewrites and
// their timings are in docs/security.md "Linear-time parsing and caps").
import type { Dependency, ParsedManifest } from '../types';
import { isObj, str, type Obj } from '../util';
import { licenseFromValue } from './common';
import { classifierLicense } from '../license';
import { LIMITS } from '../limits';
import { blanksEnd, cutFromMarker, strList } from '../util';

// A table header at the start of a line (after blanks). Was `^\s*\[` with /m: `\s*` crossed line breaks, so every line
// start rescanned the blank lines below it (quadratic on a run of newlines). Now a scan per line and an anchored header
// pattern without a repeat before it (the one-pattern form `/^[^\S\n\r\u2028\u2029]*\[…\]/m` made the ReDoS analyser
// time out).
const TABLE_HEADER = /^\[(?:project|tool\.[\w-]+|build-system|package|dependencies)\]|^\[\[package\]\]/;
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;
export const TOML_HINT = {
  test(s: string): boolean {
    for (const line of s.split(LINE_TERMINATOR)) {
      // trimStart drops the same blanks isSpaceChar accepts (String#trim's set), natively: a char-by-char
      // loop cost ~0.5 s on 12 MB of indentation (test/limits.test.ts)
      const rest = line.trimStart();
      if (rest.charCodeAt(0) === 0x5b && TABLE_HEADER.test(rest)) return true;
    }
    return false;
  },
};

// PEP 508 line. The blanks around the optional extras were two adjacent `[ \t]*` (quadratic); the extras group now
// carries its own trailing blanks, which matches the same lines with the same captures.
export const REQ_LINE =
  /^([A-Za-z0-9][A-Za-z0-9._-]*)[ \t]*(?:(\[[^\]]*\])[ \t]*)?((?:(?:===|==|>=|<=|~=|!=|<|>)[ \t]*[^\s,;#=<>~!]+[ \t]*(?:,[ \t]*)?)*)(?:;[^#]*)?(?:#.*)?$/;

/**
 * A requirement installed from a URL or VCS (PEP 440 direct references, pip's VCS support) or an editable install:
 * `git+https://…`, `https://…/x.whl`, `name @ https://…`, `-e git+…`, `-e .`.
 */
export const URL_REQUIREMENT =
  /^(?:-e\s+|--editable[\s=]+)?(?:(?:git|hg|svn|bzr)\+\S+|https?:\/\/\S+|file:\S+|\.{1,2}(?:\/\S*)?)$|^[A-Za-z0-9][\w.-]*(?:\[[^\]]*\])?\s*@\s*\S+/;

/** A URL/VCS requirement line, its environment marker (`; platform_system == …`, pip accepts it unspaced) and comment ignored. */
export function isUrlRequirement(line: string): boolean {
  const semi = line.indexOf(';');
  const hash = line.indexOf(' #');
  let end = line.length;
  if (semi >= 0) end = semi;
  if (hash >= 0 && hash < end) end = hash;
  return URL_REQUIREMENT.test(line.slice(0, end).trim());
}

/** setup.cfg (setuptools declarative config): INI sections `[metadata]` / `[options]`. */
export function looksLikeSetupCfg(text: string): boolean {
  // line by line (a multiline `\s*$` would be polynomial): the first 200 lines are enough to find a section
  return text
    .split('\n', 200)
    .some((l) => /^\[(?:metadata|options|bdist_wheel|flake8|tool:pytest|egg_info|options\.[\w.]+)\]$/.test(l.trim()));
}

const INI_SECTION = /^\[[^\]]+\]/;
/** `key = value` or `key: value`, not a requirement pin (`name==1.0`) */
const INI_KEY = /^[A-Za-z_][\w.-]*[ \t]*[=:](?!=)/;

/** The share of INI lines (sections, keys, indented continuation lines) among the lines with content. */
export function iniLineShare(lines: readonly string[]): number {
  let total = 0;
  let ini = 0;
  for (const raw of lines) {
    const t = raw.trim();
    if (!t || t.startsWith('#') || t.startsWith(';')) continue;
    total++;
    if (INI_SECTION.test(t) || INI_KEY.test(t) || /^[ \t]/.test(raw)) ini++;
  }
  return total ? ini / total : 0;
}

/** The INI sections of a setup.cfg: section → key → value (continuation lines joined with newlines). */
export function parseIni(text: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  let section: Record<string, string> | null = null;
  let key: string | null = null;
  for (const raw of text.split('\n').slice(0, 20_000)) {
    const line = raw.replace(/\r$/, '');
    if (/^\s*[#;]/.test(line) || line.trim() === '') continue;
    const sec = /^\[([^\]]+)\]/.exec(line);
    if (sec) {
      section = out[sec[1] ?? ''] = out[sec[1] ?? ''] ?? {};
      key = null;
      continue;
    }
    if (!section) continue;
    if (/^\s/.test(line) && key) {
      section[key] = `${section[key] ?? ''}\n${line.trim()}`;
      continue;
    }
    const eq = line.indexOf('=');
    if (eq > 0) {
      key = line.slice(0, eq).trim().toLowerCase();
      section[key] = line.slice(eq + 1).trim();
    }
  }
  return out;
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

/**
 * One PEP 508 string of a metadata dependency list (pyproject, setup.cfg): a direct reference (`name @ git+…`,
 * `name @ https://…`) is fetched code, kept as a URL/VCS requirement like the same line in a requirements file; any
 * other entry is a dependency.
 */
function addPep508(p: ParsedManifest, text: string, path: string): void {
  const t = cutFromMarker(text, ' #').trim();
  if (t && isUrlRequirement(t)) {
    if ((p.url_requirements ??= []).length < LIMITS.dependencies)
      p.url_requirements.push({ line: t.slice(0, LIMITS.item_string), path, editable: false });
    return;
  }
  const dep = parsePep508(text, path);
  if (dep && p.dependencies.length < LIMITS.dependencies) p.dependencies.push(dep);
}

/** Name, version, description, licence (field or trove classifiers), authors and URLs of `[project]` or Poetry. */
function projectMetadata(p: ParsedManifest, src: Obj): void {
  p.name = str(src.name);
  p.version = str(src.version);
  p.description = str(src.description);
  p.licenses = licenseFromValue(src.license);
  if (p.licenses.length === 0 && Array.isArray(src.classifiers)) {
    // trove classifiers name the licence: mapped to SPDX, not reported as non-SPDX text
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
}

export function parsePyproject(p: ParsedManifest, t: Obj): void {
  const proj = isObj(t.project) ? t.project : null;
  const tool = isObj(t.tool) ? t.tool : null;
  const poetry = tool && isObj(tool.poetry) ? tool.poetry : null;
  // a `[project]` table without a name (only `urls`, say, beside Poetry's own metadata) is not where the package is
  // described: PEP 621 requires `name`, and Poetry reads `[tool.poetry]` then (python-poetry.org/docs/pyproject)
  const src = proj && (proj.name !== undefined || !poetry) ? proj : poetry;
  if (src) projectMetadata(p, src);
  if (proj) strList(proj.dependencies).forEach((d, i) => addPep508(p, d, `project.dependencies[${i}]`));
  // PEP 621 extras, PEP 735 dependency groups (uv's `[dependency-groups]`) and uv's legacy `tool.uv.dev-dependencies`
  const uv = tool && isObj(tool.uv) ? tool.uv : null;
  const pep508Lists: Array<[unknown, string]> = [];
  if (proj && isObj(proj['optional-dependencies'])) {
    const od = proj['optional-dependencies'];
    for (const g of Object.keys(od).sort()) pep508Lists.push([od[g], `project.optional-dependencies.${g}`]);
  }
  if (isObj(t['dependency-groups'])) {
    const dg = t['dependency-groups'];
    for (const g of Object.keys(dg).sort()) pep508Lists.push([dg[g], `dependency-groups.${g}`]);
  }
  if (uv) pep508Lists.push([uv['dev-dependencies'], 'tool.uv.dev-dependencies']);
  for (const [list, path] of pep508Lists)
    // a group may include another (`{include-group = "x"}`): strList keeps the strings only
    strList(list).forEach((d, i) => addPep508(p, d, `${path}[${i}]`));
  if (poetry) {
    const tables: Array<[Obj, string]> = isObj(poetry.dependencies)
      ? [[poetry.dependencies, 'tool.poetry.dependencies']]
      : [];
    if (isObj(poetry['dev-dependencies'])) tables.push([poetry['dev-dependencies'], 'tool.poetry.dev-dependencies']);
    if (isObj(poetry.group))
      for (const g of Object.keys(poetry.group).sort()) {
        const grp = poetry.group[g];
        if (isObj(grp) && isObj(grp.dependencies))
          tables.push([grp.dependencies, `tool.poetry.group.${g}.dependencies`]);
      }
    for (const [deps, path] of tables)
      for (const k of Object.keys(deps).sort()) {
        if (k === 'python') continue;
        const v = deps[k];
        const source = isObj(v) ? sourceRequirement(k, v, `${path}.${k}`) : null;
        if (source) {
          (p.url_requirements ??= []).push(source);
          continue;
        }
        const spec = typeof v === 'string' ? v : isObj(v) ? (str(v.version) ?? '') : '';
        p.dependencies.push({ ecosystem: 'pypi', name: k.toLowerCase(), spec, path: `${path}.${k}` });
      }
  }
  // uv sources: a dependency taken from git, a URL or a path instead of the index (https://docs.astral.sh/uv/concepts/projects/dependencies/#dependency-sources)
  if (uv && isObj(uv.sources))
    for (const k of Object.keys(uv.sources).sort()) {
      const v = uv.sources[k];
      // a list of sources with markers: each one counts
      for (const [i, one] of (Array.isArray(v) ? v : [v]).entries()) {
        const source = isObj(one)
          ? sourceRequirement(k, one, `tool.uv.sources.${k}${Array.isArray(v) ? `[${i}]` : ''}`)
          : null;
        if (source) (p.url_requirements ??= []).push(source);
      }
    }
}

/** Whether a TOML document is a `uv.lock` (https://docs.astral.sh/uv/concepts/projects/layout/#the-lockfile). */
export function isUvLock(t: Obj): boolean {
  return typeof t.version === 'number' && Array.isArray(t.package) && ('requires-python' in t || 'revision' in t);
}

/**
 * uv.lock: every resolved package at its exact version (format `requirements`: a lock is a fully pinned requirements
 * set, and carries no licence); git and URL sources become URL/VCS requirements, pinned by the commit uv records
 * (`#<sha>`) or the archive's hash; editable, path, directory and virtual entries are the project's own members.
 */
export function parseUvLock(p: ParsedManifest, t: Obj): void {
  const urls: NonNullable<ParsedManifest['url_requirements']> = [];
  (t.package as unknown[]).forEach((e, i) => {
    if (!isObj(e) || typeof e.name !== 'string' || p.dependencies.length >= LIMITS.dependencies) return;
    const src = isObj(e.source) ? e.source : {};
    const path = `package[${i}]`;
    const git = str(src.git);
    const url = str(src.url);
    if (git || url) {
      const sdist = isObj(e.sdist) ? e.sdist : null;
      const hashed = !!sdist && typeof sdist.hash === 'string';
      const where = (git ? `git+${git}` : url) as string;
      urls.push({
        line: `${e.name} @ ${where.slice(0, LIMITS.item_string)}`,
        path,
        editable: false,
        pinned: git ? /#[0-9a-f]{40}$/.test(git) : hashed,
      });
    } else if (str(src.registry) && typeof e.version === 'string')
      p.dependencies.push({ ecosystem: 'pypi', name: e.name.toLowerCase(), spec: `==${e.version}`, path });
  });
  p.url_requirements = urls;
}

/**
 * A Poetry or uv dependency given as `{ git = …, rev|tag|branch = … }`, `{ url = … }` or `{ path = … }`, as a URL/VCS
 * requirement line in pip's form (R21). A git `rev` that is a full commit pins it; a tag or branch can move.
 */
function sourceRequirement(
  name: string,
  v: Obj,
  path: string,
): { line: string; path: string; editable: boolean } | null {
  const git = str(v.git);
  const url = str(v.url);
  const local = str(v.path);
  const ref = str(v.rev) ?? str(v.tag) ?? str(v.branch);
  const editable = v.editable === true || v.develop === true;
  let line: string;
  if (git) line = `${name} @ git+${git}${ref ? `@${ref}` : ''}`;
  else if (url) line = `${name} @ ${url}`;
  else if (local) line = `${editable ? '-e ' : ''}${local.startsWith('.') ? local : `file:${local}`}`;
  else return null;
  return { line: line.slice(0, LIMITS.item_string), path, editable };
}

/** setup.cfg: name, version, licence (field or trove classifier), install_requires and extras_require. */
export function parseSetupCfg(p: ParsedManifest, text: string): void {
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
  const lists: Array<[string, string]> = [[ini.options?.install_requires ?? '', 'options.install_requires']];
  // extras (`pip install pkg[extra]`), as PEP 621 optional-dependencies are read for pyproject
  const extras = ini['options.extras_require'] ?? {};
  for (const g of Object.keys(extras).sort()) lists.push([extras[g] ?? '', `options.extras_require.${g}`]);
  for (const [text, path] of lists)
    text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .forEach((l, i) => addPep508(p, l, `${path}[${i}]`));
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
    let j = blanksEnd(s, i);
    const op = operatorAt(s, j);
    if (op) {
      parts.push(s.slice(keep, i));
      j = blanksEnd(s, j + op.length);
      i = keep = j;
    } else i = j > i ? j : i + 1;
  }
  parts.push(s.slice(keep));
  return parts.join('');
}

/** What one logical requirements line is, as pip reads it; null when it is none of these. */
export type RequirementLineKind = 'pin' | 'bare' | 'url' | 'option';

/** A pip option line (`-r file`, `--index-url …`, `--hash=…`): a dash then a letter, unlike a list bullet (`- item`). */
const PIP_OPTION = /^--?[A-Za-z]/;
/** Per-requirement options after a requirement (`torch==2.4 --hash=sha256:…`): where they start. */
const REQUIREMENT_OPTIONS = /[ \t]--?[A-Za-z]/;

/** A requirement line without its per-requirement options (pip's `--hash`, `--config-settings`). */
function requirementText(line: string): string {
  const i = line.search(REQUIREMENT_OPTIONS);
  return (i < 0 ? line : line.slice(0, i)).trim();
}

/** What a requirement line can start with: a name, a URL or path (`.`, `git+`, `https:`), or an option (`-`). */
const REQUIREMENT_START = /^[A-Za-z0-9.-]/;

export function requirementLineKind(line: string): RequirementLineKind | null {
  if (!REQUIREMENT_START.test(line)) return null;
  if (isUrlRequirement(line)) return 'url';
  if (PIP_OPTION.test(line)) return 'option';
  const s = line.includes('-') ? requirementText(line) : line;
  if (!REQ_LINE.test(s)) return null;
  // a name followed by more words is prose, not a requirement
  if (/\s/.test(s) && /\s/.test(cutFromMarker(cutFromMarker(removeVersionOperators(s), ';'), '#').trim())) return null;
  return /[=<>~]/.test(s) ? 'pin' : 'bare';
}

/** One logical line of a requirements file: continuation lines (`\`) joined, numbered by its first physical line. */
export interface RequirementLine {
  text: string;
  line: number;
  kind: RequirementLineKind | null;
}

/** The logical lines of a requirements file with content (blank lines and `#` comments left out), each classified. */
export function requirementLines(lines: readonly string[]): RequirementLine[] {
  const out: RequirementLine[] = [];
  let cur = '';
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (cur === '') start = i + 1;
    if (raw.endsWith('\\')) {
      cur += `${raw.slice(0, -1)} `;
      continue;
    }
    const text = (cur + raw).trim();
    cur = '';
    if (text && !text.startsWith('#')) out.push({ text, line: start, kind: requirementLineKind(text) });
  }
  const last = cur.trim();
  if (last && !last.startsWith('#')) out.push({ text: last, line: start, kind: requirementLineKind(last) });
  return out;
}

/**
 * requirements*.txt: pins, ranges, markers, `-r`/`-c` and option lines, URL/VCS and editable requirements (kept as
 * `url_requirements`). Lines that are none of these are skipped and listed in `skipped_lines`, never fatal: every
 * valid pin is still read (docs/enrichment.md "Manifests recognised").
 */
export function parseRequirements(p: ParsedManifest, lines: readonly RequirementLine[]): void {
  const urls: Array<{ line: string; path: string; editable: boolean }> = [];
  const skipped: number[] = [];
  for (const l of lines) {
    if (l.kind === 'url') {
      const t = cutFromMarker(l.text, ' #').trim();
      if (urls.length < LIMITS.dependencies)
        urls.push({
          line: t.slice(0, LIMITS.item_string),
          path: `line ${l.line}`,
          editable: /^(?:-e|--editable)/.test(t),
        });
    } else if (l.kind === 'pin' || l.kind === 'bare') {
      const d = parsePep508(requirementText(l.text), `line ${l.line}`);
      if (d) p.dependencies.push(d);
    } else if (l.kind === null) skipped.push(l.line);
  }
  p.url_requirements = urls;
  if (skipped.length) p.skipped_lines = { lines: skipped.slice(0, LIMITS.evidence_items), total: skipped.length };
}
