// Package manifests: npm package.json, pyproject.toml (PEP 621, Poetry), setup.cfg, requirements*.txt.
// Every pattern here runs on tenant content: each is linear in V8 (checked by `pnpm check:redos`; the rewrites and
// their timings are in docs/security.md "Linear-time parsing and caps").
import type { Dependency, ParsedManifest } from '../types';
import { isObj, str, type Obj } from '../util';
import { append, licenseFromValue } from './common';
import { isUrlRequirement, parseIni } from '../formats';
import { classifierLicense } from '../license';
import { LIMITS } from '../limits';
import { cutFromMarker, isSpaceChar, strList } from '../util';

// A table header at the start of a line (after blanks). Was `^\s*\[` with /m: `\s*` crossed line breaks, so every line
// start rescanned the blank lines below it (quadratic on a run of newlines). Now a scan per line and an anchored header
// pattern without a repeat before it (the one-pattern form `/^[^\S\n\r\u2028\u2029]*\[…\]/m` made the ReDoS analyser
// time out).
const TABLE_HEADER = /^\[(?:project|tool\.[\w-]+|build-system|package|dependencies)\]/;
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;
export const TOML_HINT = {
  test(s: string): boolean {
    for (const line of s.split(LINE_TERMINATOR)) {
      let i = 0;
      while (i < line.length && isSpaceChar(line[i])) i++;
      if (line[i] === '[' && TABLE_HEADER.test(i === 0 ? line : line.slice(i))) return true;
    }
    return false;
  },
};

// PEP 508 line. The blanks around the optional extras were two adjacent `[ \t]*` (quadratic); the extras group now
// carries its own trailing blanks, which matches the same lines with the same captures.
export const REQ_LINE =
  /^([A-Za-z0-9][A-Za-z0-9._-]*)[ \t]*(?:(\[[^\]]*\])[ \t]*)?((?:(?:===|==|>=|<=|~=|!=|<|>)[ \t]*[^\s,;#=<>~!]+[ \t]*(?:,[ \t]*)?)*)(?:;[^#]*)?(?:#.*)?$/;

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

export function parseNpm(p: ParsedManifest, j: Obj): void {
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

export function parsePyproject(p: ParsedManifest, t: Obj): void {
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
