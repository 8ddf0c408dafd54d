import semver from 'semver';
import advisoriesData from './data/advisories.json';
import type { Dependency, Severity } from './types';
import { isSpaceChar, lastLineStart } from './util';

export interface Advisory {
  id: string;
  aliases: string[];
  ecosystem: string;
  package: string;
  affected: string;
  severity: Severity;
  summary: string;
  fixed: string | null;
  source: string;
  verification: string;
}

const ECO: Record<string, Dependency['ecosystem']> = { PyPI: 'pypi', npm: 'npm', Go: 'go' };
export const ADVISORIES: ReadonlyArray<Advisory & { eco: Dependency['ecosystem'] | undefined }> = (
  advisoriesData.advisories as unknown as Advisory[]
).map((a) => ({
  ...a,
  fixed: a.fixed ?? null,
  eco: ECO[a.ecosystem],
}));
const BY_PKG = new Map<string, Array<(typeof ADVISORIES)[number]>>();
for (const a of ADVISORIES) {
  const k = `${a.eco}:${a.package.toLowerCase()}`;
  const l = BY_PKG.get(k) ?? [];
  l.push(a);
  BY_PKG.set(k, l);
}

/** PEP 440 / Go version → semver string (or null). */
export function toSemver(v: string): string | null {
  let s = v.trim().replace(/^v/i, '').replace(/^=+/, '');
  s = s.replace(
    /^(\d+(?:\.\d+)*)[-_.]?(a|b|rc|alpha|beta|c|pre|preview|dev)[-_.]?(\d*)$/i,
    (_m, base: string, tag: string, n: string) =>
      `${base}-${tag.toLowerCase() === 'c' ? 'rc' : tag.toLowerCase()}.${n || '0'}`,
  );
  s = s.replace(/\.post\d+$/i, '');
  const m = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.\d+)*(-[0-9A-Za-z.-]+)?$/.exec(s);
  if (!m) return null;
  return `${m[1]}.${m[2] ?? '0'}.${m[3] ?? '0'}${m[4] ?? ''}`;
}

const SPEC_OPERATORS = ['===', '==', '>=', '<=', '~=', '!=', '<', '>'];

/**
 * `{ op: m[1], version: m[2] }` of `/^(===|==|>=|<=|~=|!=|<|>)?\s*(.+)$/.exec(part)`, with the regex's backtracking
 * order but without its cost (the blank run could be split between `\s*` and `.+` in every way: quadratic). For each
 * operator that could start the part (in alternation order, then none), the version is the rest after the longest
 * blank run that leaves a non-empty rest without a line break (`.` stops at one).
 */
export function splitVersionOperator(part: string): { op: string | undefined; version: string } | null {
  const tailStart = lastLineStart(part);
  for (const op of [...SPEC_OPERATORS.filter((o) => part.startsWith(o)), undefined]) {
    const j = op ? op.length : 0;
    let k = j;
    while (k < part.length && isSpaceChar(part[k])) k++;
    const from = Math.min(k, part.length - 1);
    if (from >= j && from >= tailStart) return { op, version: part.slice(from) };
  }
  return null;
}

/** Dependency spec → semver range, or null when not expressible. */
export function specToRange(eco: Dependency['ecosystem'], spec: string): string | null {
  const s = spec.trim();
  if (s === '' || s === '*' || s === 'latest') return '*';
  if (eco === 'npm') {
    if (/^(file:|git|http|workspace:|link:|npm:)/.test(s)) return null;
    return semver.validRange(s, { loose: true });
  }
  const parts = s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const part of parts) {
    const m = splitVersionOperator(part);
    if (!m) return null;
    const op = m.op ?? '==';
    const version = m.version;
    if (op === '!=') continue;
    if (version.includes('*')) {
      const base = toSemver(version.replace(/\.\*$/, ''));
      if (!base) return null;
      out.push(
        `~${base
          .split('.')
          .slice(0, version.split('.').length - 1)
          .join('.')}`,
      );
      continue;
    }
    const v = toSemver(version);
    if (!v) return null;
    if (op === '==' || op === '===') out.push(`=${v}`);
    else if (op === '~=') {
      const segs = version.split('.').length;
      out.push(segs >= 3 ? `~${v}` : `^${v}`);
    } else out.push(`${op}${v}`);
  }
  return out.length ? semver.validRange(out.join(' ')) : '*';
}

export function isPinned(eco: Dependency['ecosystem'], spec: string): boolean {
  const s = spec.trim();
  if (eco === 'npm') return semver.valid(s, { loose: true }) !== null;
  // `==` then no `,` or `*` (was `^===?\s*[^,*]+$`: the blanks could go to either part, quadratic; same language)
  return /^===?[^,*]+$/.test(s);
}

export interface AdvisoryMatch {
  advisory: Advisory;
  dependency: Dependency;
  all_allowed_vulnerable: boolean;
}

/**
 * A dependency matches when its spec is an exact version inside the affected range, or when every version
 * the spec allows is affected (no fixed version satisfies it). Open ranges that also allow fixed versions do not match.
 */
export function matchAdvisories(deps: Dependency[]): AdvisoryMatch[] {
  const out: AdvisoryMatch[] = [];
  for (const d of deps) {
    const list = BY_PKG.get(`${d.ecosystem}:${d.name.toLowerCase()}`);
    if (!list) continue;
    const range = specToRange(d.ecosystem, d.spec);
    if (!range || range === '*') continue;
    for (const a of list) {
      const aff = semver.validRange(a.affected);
      if (!aff) continue;
      const exact = isPinned(d.ecosystem, d.spec) ? toSemver(d.spec.replace(/^===?/, '')) : null;
      if (exact) {
        const fx = a.fixed ? toSemver(a.fixed) : null;
        if (fx && semver.gte(exact, fx)) continue; // fixed may be a pre-release below the range's bound (keras 2.13.1rc0)
        if (semver.satisfies(exact, aff, { includePrerelease: true }))
          out.push({ advisory: a, dependency: d, all_allowed_vulnerable: true });
        continue;
      }
      if (!semver.intersects(range, aff, { includePrerelease: true })) continue;
      const fixed = a.fixed ? toSemver(a.fixed) : null;
      if (!fixed) continue; // no fixed version: only exact pins are matched
      if (!semver.intersects(range, `>=${fixed}`, { includePrerelease: true }))
        out.push({ advisory: a, dependency: d, all_allowed_vulnerable: true });
    }
  }
  return out;
}
