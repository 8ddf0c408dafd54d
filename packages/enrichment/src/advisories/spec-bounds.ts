// A dependency's version spec as bounds in its ecosystem's order, so "every version the spec allows is affected" can
// be decided against an advisory interval (docs/advisories.md "Matching": ranges, not only pins).
import semver from 'semver';
import { splitVersionOperator } from '../versions';
import type { Interval } from './intervals';
import type { VersionOrder } from './order';

export interface Bound {
  v: string;
  inclusive: boolean;
}
export interface SpecBounds {
  lo: Bound | null;
  hi: Bound | null;
}

/** `~=2.2` → `<3`, `~=1.4.5` → `<1.5` (PEP 440 compatible release): the release prefix with its last kept part bumped. */
function compatibleUpper(version: string): string | null {
  const release = /^\d+(?:\.\d+)+/.exec(version.trim());
  if (!release) return null;
  const segs = release[0].split('.').slice(0, -1).map(Number);
  segs[segs.length - 1] = (segs[segs.length - 1] ?? 0) + 1;
  return segs.join('.');
}

/**
 * Poetry's caret and tilde requirements (python-poetry.org/docs/dependency-specification), which uv and PDM read the
 * same way in Poetry tables: `^1.2.3` → `>=1.2.3,<2.0.0`, `^0.2.3` → `<0.3.0`, `^0.0.237` → `<0.0.238` (the leftmost
 * non-zero part is bumped; all zero: the last given part), `~1.2.3` → `<1.3.0`, `~1` → `<2`. Null for other text.
 */
export function poetryUpper(op: '^' | '~', version: string): string | null {
  const release = /^\d+(?:\.\d+){0,3}$/.exec(version.trim());
  if (!release) return null;
  const parts = release[0].split('.').map(Number);
  let i: number;
  if (op === '~') i = parts.length === 1 ? 0 : 1;
  else {
    i = parts.findIndex((x) => x !== 0);
    if (i < 0) i = parts.length - 1;
  }
  const up = parts.slice(0, i + 1);
  up[i] = (up[i] ?? 0) + 1;
  return up.join('.');
}

/** The tighter of two bounds: the lower one for an upper bound (`upper`), the higher one for a lower bound. */
function tighter(a: Bound | null, b: Bound, by: { order: VersionOrder; upper: boolean }): Bound {
  const { order, upper } = by;
  if (!a) return b;
  const c = order.compare(a.v, b.v);
  if (c === 0) return { v: a.v, inclusive: a.inclusive && b.inclusive };
  return (upper ? c < 0 : c > 0) ? a : b;
}

/** PEP 440 specifier set (`>=1.0,<2`, `~=1.4`) → bounds; null when a part is not understood (wildcards, `===` text). */
export function pep440Bounds(spec: string, order: VersionOrder): SpecBounds | null {
  let lo: Bound | null = null;
  let hi: Bound | null = null;
  for (const part of spec.split(',').map((s) => s.trim())) {
    if (part === '') continue;
    const caret = part.startsWith('^') ? '^' : part.startsWith('~') && part[1] !== '=' ? '~' : null;
    if (caret) {
      const rest = part.slice(1).trim();
      const base = order.parse(rest);
      const up = base === null ? null : poetryUpper(caret, rest);
      if (base === null || up === null) return null;
      lo = tighter(lo, { v: base, inclusive: true }, { order, upper: false });
      hi = tighter(hi, { v: up, inclusive: false }, { order, upper: true });
      continue;
    }
    const m = splitVersionOperator(part);
    if (!m || m.version.includes('*')) return null;
    const v = order.parse(m.version);
    if (v === null) return null;
    const op = m.op ?? '==';
    if (op === '!=') continue;
    if (op === '>=' || op === '>' || op === '~=' || op === '==' || op === '===')
      lo = tighter(lo, { v, inclusive: op !== '>' }, { order, upper: false });
    if (op === '<=' || op === '<' || op === '==' || op === '===')
      hi = tighter(hi, { v, inclusive: op !== '<' }, { order, upper: true });
    if (op === '~=') {
      const up = compatibleUpper(v);
      if (up === null) return null;
      hi = tighter(hi, { v: up, inclusive: false }, { order, upper: true });
    }
  }
  return { lo, hi };
}

/**
 * Every version the bounds allow lies before the interval's end (no fixed version satisfies the spec), and the
 * spec reaches into the interval. A spec without an upper bound, or an interval without a fix, never qualifies:
 * such a spec also allows whatever is published next (docs/advisories.md "Matching").
 */
export function boundsUnfixed(b: SpecBounds, i: Interval, order: VersionOrder): boolean {
  if (!b.hi || i.to === null) return false;
  const c = order.compare(b.hi.v, i.to);
  const belowEnd = i.inclusive
    ? c < 0 || (c === 0 && (b.hi.inclusive || i.inclusive))
    : c < 0 || (c === 0 && !b.hi.inclusive);
  if (!belowEnd) return false;
  if (i.from === null) return true;
  const reach = order.compare(b.hi.v, i.from);
  return reach > 0 || (reach === 0 && b.hi.inclusive);
}

/** The same question for an npm/semver range spec, with semver's own range algebra. */
export function semverRangeUnfixed(range: string, i: Interval): boolean {
  if (i.to === null) return false;
  const interval = `${i.from === null ? '>=0.0.0-0' : `>=${i.from}`} ${i.inclusive ? '<=' : '<'}${i.to}`;
  const beyond = i.inclusive ? `>${i.to}` : `>=${i.to}`;
  const opts = { includePrerelease: true };
  return semver.intersects(range, interval, opts) && !semver.intersects(range, beyond, opts);
}
