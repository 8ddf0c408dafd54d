// Each ecosystem's own version order (docs/advisories.md "Matching"): PEP 440 for PyPI, semver for npm and Go
// (`v` prefix dropped), semver for ranges of type SEMVER whatever the ecosystem. OSV ranges of type GIT (commit
// hashes) and ECOSYSTEM ranges of ecosystems without an order here cannot be evaluated: only their explicit
// `versions` lists match.
import * as pep440 from '@renovatebot/pep440';
import semver from 'semver';

export interface VersionOrder {
  /** the version in a form compare() accepts, or null when it is not a version of this order */
  parse(v: string): string | null;
  compare(a: string, b: string): number;
}

/**
 * Memo of PEP 440 validity and comparisons: the same few event versions are compared many times while sorting and
 * testing one record's ranges, and the library parses both strings with a regular expression on every call. Bounded:
 * cleared when full (a look-up's candidates hold a few thousand distinct versions at most).
 */
const MEMO_MAX = 50_000;
const valid = new Map<string, string | null>();
const compared = new Map<string, number>();
const PEP440: VersionOrder = {
  parse: (v) => {
    if (v.length > 200) return null;
    let r = valid.get(v);
    if (r === undefined) {
      if (valid.size >= MEMO_MAX) valid.clear();
      r = pep440.valid(v.trim()) !== null ? v.trim() : null;
      valid.set(v, r);
    }
    return r;
  },
  compare: (a, b) => {
    const key = `${a}\u0000${b}`;
    let c = compared.get(key);
    if (c === undefined) {
      if (compared.size >= MEMO_MAX) compared.clear();
      c = pep440.compare(a, b);
      compared.set(key, c);
    }
    return c;
  },
};

const SEMVER: VersionOrder = {
  parse: (v) => {
    if (v.length > 200) return null;
    return semver.valid(v.trim().replace(/^v/, ''), { loose: true });
  },
  compare: (a, b) => semver.compare(a, b, { loose: true }),
};

export function versionOrder(ecosystem: string, rangeType: string): VersionOrder | null {
  if (rangeType === 'SEMVER') return SEMVER;
  if (rangeType !== 'ECOSYSTEM') return null;
  if (ecosystem === 'pypi') return PEP440;
  if (ecosystem === 'npm' || ecosystem === 'go') return SEMVER;
  return null;
}
