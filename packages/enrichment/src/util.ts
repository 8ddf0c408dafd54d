export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
export function str(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() === '' ? null : v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}
export function strList(v: unknown): string[] {
  if (typeof v === 'string') return v.trim() ? [v.trim()] : [];
  if (Array.isArray(v)) return v.map(str).filter((x): x is string => x !== null);
  return [];
}
export function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
/** Deterministic JSON with sorted object keys. */
export function stableStringify(v: unknown): string {
  if (v === undefined) return 'null';
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return '[' + v.map(stableStringify).join(',') + ']';
  const o = v as Obj;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + stableStringify(o[k])).join(',') + '}';
}
export function truncate(s: string, n = 200): string {
  return s.length > n ? s.slice(0, n) + '…' : s;
}
/** Damerau–Levenshtein (optimal string alignment) with an early-exit bound. */
export function editDistance(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  // three rows reused across calls (the typosquat check runs this ~100 times per name): i-2, i-1 and i
  if (rows.length < 3 * (lb + 1)) rows = new Int32Array(3 * (lb + 1) * 2);
  let prev2 = 0;
  let prev = lb + 1;
  let cur = 2 * (lb + 1);
  for (let j = 0; j <= lb; j++) rows[prev + j] = j;
  for (let i = 1; i <= la; i++) {
    rows[cur] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= lb; j++) {
      const cost = ai === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(rows[prev + j]! + 1, rows[cur + j - 1]! + 1, rows[prev + j - 1]! + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1))
        v = Math.min(v, rows[prev2 + j - 2]! + 1);
      rows[cur + j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return rows[prev + lb]!;
}
let rows = new Int32Array(3 * 64);

// ---- linear-time string helpers (docs/security.md "Linear-time parsing and caps") ----
// Each replaces a regular expression that backtracks quadratically on some input in V8 (e.g. `/^-+|-+$/g` on a
// long run of dashes); each is one pass over its input.

/** `s` without leading and trailing runs of `ch` (a single character): `s.replace(/^-+|-+$/g, '')` for `-`. */
export function trimChar(s: string, ch: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s[start] === ch) start++;
  while (end > start && s[end - 1] === ch) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

const LINE_TERMINATORS = ['\n', '\r', '\u2028', '\u2029'];

/** Index just after the last line terminator of `s` (0 when it has none): where `$` without `m` can be reached by `.*`. */
export function lastLineStart(s: string): number {
  let last = -1;
  for (const t of LINE_TERMINATORS) last = Math.max(last, s.lastIndexOf(t));
  return last + 1;
}

export function hasLineTerminator(s: string): boolean {
  return lastLineStart(s) > 0;
}

/**
 * `s` cut at the first `marker` of its last line: what `s.replace(/<marker>.*$/, '')` does (`.` stops at line
 * terminators, so only a marker after the last one can reach the end).
 */
export function cutFromMarker(s: string, marker: string): string {
  if (!s.includes(marker)) return s;
  const i = s.indexOf(marker, lastLineStart(s));
  return i < 0 ? s : s.slice(0, i);
}

/** `/\s/` for one UTF-16 unit (ECMAScript WhiteSpace + LineTerminator). */
// `\s` is String#trim's set (WhiteSpace and LineTerminator), the blanks isSpaceChar accepts
const BLANK_RUN = /\s*/y;

/** The index after the run of blanks that starts at `from` (`from` itself when there is none), in one native scan. */
export function blanksEnd(s: string, from: number): number {
  BLANK_RUN.lastIndex = from;
  BLANK_RUN.exec(s);
  return BLANK_RUN.lastIndex;
}

export function isSpaceChar(ch: string | undefined): boolean {
  return ch !== undefined && ch !== '' && ch.trim() === '';
}
