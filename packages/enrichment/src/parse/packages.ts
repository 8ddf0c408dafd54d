// Package manifests: pyproject.toml (PEP 621, Poetry), uv.lock, setup.cfg, requirements*.txt (npm: packages-npm.ts).
// Every pattern here runs on tenant content: each is linear in V8 (checked by `pnpm check:redos`; the rewrites and
// their timings are in docs/security.md "Linear-time parsing and caps").
import type { Dependency, ParsedManifest } from '../types';
import { isObj, str, type Obj } from '../util';
import { licenseFromValue } from './common';
import { isUrlRequirement, parseIni } from '../formats';
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

/** Name, version, description, licence (field or trove classifiers), authors and URLs of `[project]` or Poetry. */
function projectMetadata(p: ParsedManifest, src: Obj): void {
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
}

export function parsePyproject(p: ParsedManifest, t: Obj): void {
  p.kind = 'pyproject';
  const proj = isObj(t.project) ? t.project : null;
  const tool = isObj(t.tool) ? t.tool : null;
  const poetry = tool && isObj(tool.poetry) ? tool.poetry : null;
  const src = proj ?? poetry;
  if (src) projectMetadata(p, src);
  if (proj)
    strList(proj.dependencies).forEach((d, i) => {
      const dep = parsePep508(d, `project.dependencies[${i}]`);
      if (dep) p.dependencies.push(dep);
    });
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
    strList(list).forEach((d, i) => {
      const dep = parsePep508(d, `${path}[${i}]`);
      if (dep && p.dependencies.length < LIMITS.dependencies) p.dependencies.push(dep);
    });
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
 * uv.lock: every resolved package at its exact version (kind `requirements`: a lock is a fully pinned requirements
 * set, and carries no licence); git and URL sources become URL/VCS requirements, pinned by the commit uv records
 * (`#<sha>`) or the archive's hash; editable, path, directory and virtual entries are the project's own members.
 */
export function parseUvLock(p: ParsedManifest, t: Obj): void {
  p.kind = 'requirements';
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

/** setup.cfg: name, version, licence (field or trove classifier), install_requires. */
export function parseSetupCfg(p: ParsedManifest, text: string): void {
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

/**
 * requirements*.txt: pins, ranges, markers, `-r`/`-c` and option lines, URL/VCS and editable requirements (kept as
 * `url_requirements`). `lines` are the trimmed non-comment lines; false when the text is not a requirements file.
 */
export function parseRequirements(p: ParsedManifest, textLines: readonly string[], lines: readonly string[]): boolean {
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
    return p.dependencies.length > 0 || urls.length > 0;
  }
  return false;
}
