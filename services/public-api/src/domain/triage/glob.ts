/**
 * Fingerprint globs of suppression rules (docs/triage.md "Suppression rules"): `*` matches any run of
 * characters (`/` and `:` included), `?` exactly one character (one Unicode code point), `\` makes the next
 * character literal (a trailing `\` is itself literal). No regular expression is ever built from the pattern.
 *
 * An org's rules are checked against every asset its view renders, so a match must cost linear time whatever
 * the pattern holds (docs/security.md "Suppression globs in linear time"). The glob is split on its stars
 * into segments of fixed length; the first is anchored at the start, the last at the end, and each one in
 * between is taken at its leftmost place after the previous one. Leftmost is never wrong: a segment has a
 * fixed length, so an earlier place leaves the rest of the value a superset of what a later one leaves. A
 * literal segment is found with Knuth–Morris–Pratt (at most 2 steps per character), a segment with `?` with
 * bit-parallel Shift-And (one step per character per 32 code points of the segment), and the scans of the
 * segments never overlap: a match costs O(|glob| + |value| × ⌈longest `?` segment / 32⌉), at most
 * 256 + 512 × 8 word steps with the API's caps, where the two-pointer matcher this replaced took
 * |glob| × |value| (131,072) on `*aaa…ab`.
 */

/** `?` in a segment's code points (no code point is negative). */
const ANY = -1;

interface Segment {
  /** code points, ANY for `?` */
  cps: Int32Array;
  /** literal segments: the KMP failure table; null when the segment holds a `?` */
  failure: Int32Array | null;
  /**
   * segments with `?`: the Shift-And masks of ⌈length / 32⌉ words each (bit j of a mask: the segment's code point
   * j accepts the character): one per ASCII character side by side in `ascii`, a map for the others, `any` for
   * characters the segment does not name
   */
  masks: { words: number; any: Uint32Array; ascii: Uint32Array; other: Map<number, Uint32Array> } | null;
}

export interface CompiledGlob {
  /** the pattern's pieces between its stars (consecutive stars are one); one piece when it has no star */
  segments: Segment[];
  /** how many code points a matching value has at least (every non-star token takes one) */
  minLength: number;
  /** the literal prefix (up to the first wildcard): a cheap SQL pre-filter (starts_with) */
  prefix: string;
}

/** A value prepared once for every glob it is matched against: its code points. */
export type GlobSubject = Int32Array;

/** The code points of `value`, as `Array.from` splits it (a lone surrogate is one). */
export function globSubject(value: string): GlobSubject {
  const out = new Int32Array(value.length);
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const cp = value.codePointAt(i)!;
    out[n++] = cp;
    if (cp > 0xffff) i++;
  }
  return out.subarray(0, n);
}

export function compileGlob(pattern: string): CompiledGlob {
  const pieces: number[][] = [[]];
  const chars = globSubject(pattern);
  let prefix = '';
  let inPrefix = true;
  for (let i = 0; i < chars.length; i++) {
    let c = chars[i]!;
    let token: number | 'star' = c;
    if (c === 0x5c /* \ */ && i + 1 < chars.length) c = token = chars[++i]!;
    else if (c === 0x2a /* * */) token = 'star';
    else if (c === 0x3f /* ? */) token = ANY;
    if (token === 'star') {
      inPrefix = false;
      // consecutive stars are one star
      if (pieces.length === 1 || pieces[pieces.length - 1]!.length > 0) pieces.push([]);
      continue;
    }
    if (token === ANY) inPrefix = false;
    else if (inPrefix) prefix += String.fromCodePoint(c);
    pieces[pieces.length - 1]!.push(token);
  }
  return {
    segments: pieces.map(segment),
    minLength: pieces.reduce((n, p) => n + p.length, 0),
    prefix,
  };
}

function segment(piece: number[]): Segment {
  const cps = Int32Array.from(piece);
  const literal = !piece.includes(ANY);
  return { cps, failure: literal ? failureTable(cps) : null, masks: literal ? null : shiftAndMasks(cps) };
}

/** KMP: failure[j] = length of the longest proper border of cps[0..j]. */
function failureTable(cps: Int32Array): Int32Array {
  const failure = new Int32Array(cps.length);
  for (let j = 1, k = 0; j < cps.length; j++) {
    while (k > 0 && cps[j] !== cps[k]) k = failure[k - 1]!;
    if (cps[j] === cps[k]) k++;
    failure[j] = k;
  }
  return failure;
}

function shiftAndMasks(cps: Int32Array): NonNullable<Segment['masks']> {
  const words = Math.ceil(cps.length / 32);
  const any = new Uint32Array(words);
  cps.forEach((c, j) => {
    if (c === ANY) any[j >>> 5]! |= 1 << (j & 31);
  });
  const ascii = new Uint32Array(128 * words);
  for (let c = 0; c < 128; c++) ascii.set(any, c * words);
  const other = new Map<number, Uint32Array>();
  cps.forEach((c, j) => {
    if (c === ANY) return;
    if (c < 128) {
      ascii[c * words + (j >>> 5)]! |= 1 << (j & 31);
      return;
    }
    let mask = other.get(c);
    if (!mask) other.set(c, (mask = Uint32Array.from(any)));
    mask[j >>> 5]! |= 1 << (j & 31);
  });
  return { words, any, ascii, other };
}

/** Whether `glob` matches the whole of `value` (a string, or its code points from globSubject). */
export function globMatches(glob: CompiledGlob, value: string | GlobSubject): boolean {
  const s = typeof value === 'string' ? globSubject(value) : value;
  const n = s.length;
  if (n < glob.minLength) return false;
  const segs = glob.segments;
  const first = segs[0]!;
  if (segs.length === 1) return n === first.cps.length && matchesAt(first, s, 0);
  // anchored ends first: they reject most values in a few steps
  const last = segs[segs.length - 1]!;
  if (!matchesAt(first, s, 0) || !matchesAt(last, s, n - last.cps.length)) return false;
  // minLength keeps the two ends apart; the segments between are taken leftmost, each after the previous one
  const scan: Scan = { s, from: first.cps.length, end: n - last.cps.length };
  for (let k = 1; k < segs.length - 1; k++) {
    const seg = segs[k]!;
    const at = seg.failure ? findLiteral(seg, scan) : findWithAny(seg, scan);
    if (at < 0) return false;
    scan.from = at + seg.cps.length;
  }
  return true;
}

/** Where the next segment may lie: wholly inside s[from, end). */
interface Scan {
  s: GlobSubject;
  from: number;
  end: number;
}

function matchesAt(seg: Segment, s: GlobSubject, at: number): boolean {
  const cps = seg.cps;
  for (let j = 0; j < cps.length; j++) if (cps[j] !== ANY && cps[j] !== s[at + j]) return false;
  return true;
}

/** The leftmost place of a literal segment in the scan (KMP), or -1. */
function findLiteral(seg: Segment, { s, from, end }: Scan): number {
  const { cps } = seg;
  const failure = seg.failure!;
  const m = cps.length;
  for (let i = from, k = 0; i < end; i++) {
    while (k > 0 && s[i] !== cps[k]) k = failure[k - 1]!;
    if (s[i] === cps[k]) k++;
    if (k === m) return i - m + 1;
  }
  return -1;
}

/** The leftmost place of a segment with `?` in the scan (Shift-And), or -1. */
function findWithAny(seg: Segment, { s, from, end }: Scan): number {
  const { words, any, ascii, other } = seg.masks!;
  const m = seg.cps.length;
  const topWord = (m - 1) >>> 5;
  const topBit = 1 << ((m - 1) & 31);
  // state bit j: the segment's first j + 1 code points end at the current character
  const state = new Uint32Array(words);
  for (let i = from; i < end; i++) {
    const c = s[i]!;
    const mask = c < 128 ? ascii : (other.get(c) ?? any);
    const base = c < 128 ? c * words : 0;
    let carry = 1;
    for (let w = 0; w < words; w++) {
      const word = state[w]!;
      state[w] = ((word << 1) | carry) & mask[base + w]!;
      carry = word >>> 31;
    }
    if (state[topWord]! & topBit) return i - m + 1;
  }
  return -1;
}
