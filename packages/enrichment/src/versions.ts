// Dependency spec helpers shared by R22/R23 (PEP 440 operators, exact pins); advisory matching is in src/advisories.
import semver from 'semver';
import type { Dependency } from './types';
import { isSpaceChar, lastLineStart } from './util';

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

export function isPinned(eco: Dependency['ecosystem'], spec: string): boolean {
  const s = spec.trim();
  if (eco === 'npm') return semver.valid(s, { loose: true }) !== null;
  // `==` then no `,` or `*` (was `^===?\s*[^,*]+$`: the blanks could go to either part, quadratic; same language)
  return /^===?[^,*]+$/.test(s);
}
