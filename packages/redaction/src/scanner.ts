// The one-pass scanner of redactText and findSecrets (docs/security.md "Secrets never reach shared data").
import { assignedValue } from './assignment';
import {
  BASE64_PREFIXES,
  ELLIPSIS,
  FORMATS_BY_FIRST,
  JWT_FORMAT,
  MAX_TOKEN,
  PREFIX_SCAN,
  REDACTED,
  REDACTED_IN_URL,
  matchFormat,
} from './catalogue';
import { endsAuthority, isBase64Char, isDigit, isLower, isRunChar, isSpace, isUpper } from './chars';
import { isPlaceholderValue } from './names';

export interface Span {
  start: number;
  end: number;
  replacement: string;
  kind?: string;
}

/** [from, to) holds an upper-case letter, a lower-case letter and a digit (a generated token does). */
function mixesCases(s: string, from: number, to: number): boolean {
  let upper = false;
  let lower = false;
  let digit = false;
  for (let k = from; k < to && !(upper && lower && digit); k++) {
    const c = s.charCodeAt(k);
    if (isUpper(c)) upper = true;
    else if (isLower(c)) lower = true;
    else if (isDigit(c)) digit = true;
  }
  return upper && lower && digit;
}

/** A '.' in [from, to): a bounded look, never past the run (indexOf would search the rest of the text). */
function hasDot(s: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (s.charCodeAt(k) === 46) return true;
  return false;
}

export class Scanner {
  readonly spans: Span[] = [];
  private readonly n: number;
  constructor(
    private readonly s: string,
    private readonly tokensOnly: boolean,
  ) {
    this.n = s.length;
  }

  run(): Span[] {
    const { s, n } = this;
    let i = 0;
    while (i < n) {
      if (this.tokensOnly) {
        // only runs holding a catalogue prefix matter: the native engine finds the next one
        PREFIX_SCAN.lastIndex = i;
        const m = PREFIX_SCAN.exec(s);
        if (!m) break;
        let a = m.index;
        while (a > i && isRunChar(s.charCodeAt(a - 1))) a--;
        if (a > 0 && s.charCodeAt(a - 1) === 92 /* \ */) a++; // the letter of an escape (\n) is no part of it
        if (a > m.index) {
          i = m.index + 1;
          continue;
        }
        const start = a;
        i = a;
        while (i < n && isRunChar(s.charCodeAt(i))) i++;
        // no token of the catalogue is shorter than 8 characters
        if (i - start >= 8) i = this.onRun(start, i);
        continue;
      }
      const c = s.charCodeAt(i);
      if (c === 92 /* \ */) {
        // an escape sequence inside raw JSON text (\n, \", \u…): neither half is part of a token
        i += 2;
        continue;
      }
      if (!this.tokensOnly && c === 58 /* : */ && s.startsWith('//', i + 1)) {
        i = this.userInfo(i + 3);
        continue;
      }
      if (!isRunChar(c)) {
        i++;
        continue;
      }
      const start = i;
      while (i < n && isRunChar(s.charCodeAt(i))) i++;
      i = this.onRun(start, i);
    }
    return this.spans;
  }

  /** `scheme://user:password@host`: the password (or a lone user-info, a token) is redacted. */
  private userInfo(from: number): number {
    const { s, n } = this;
    let k = from;
    let at = -1;
    while (k < n && !endsAuthority(s.charCodeAt(k))) {
      if (s.charCodeAt(k) === 64 /* @ */) at = k;
      k++;
    }
    if (at <= from) return from;
    let colon = from;
    while (colon < at && s.charCodeAt(colon) !== 58) colon++;
    const start = colon < at ? colon + 1 : from;
    if (at > start) this.spans.push({ start, end: at, replacement: REDACTED_IN_URL });
    return at + 1;
  }

  /** One run of token characters and dots, [start, end). Returns where the scan goes on. */
  private onRun(start: number, end: number): number {
    const { s, n } = this;
    let a = start;
    let e = end;
    while (a < e && s.charCodeAt(a) === 46) a++;
    while (e > a && s.charCodeAt(e - 1) === 46) e--;
    if (a >= e) return end;
    // the rules' truncate() cut the text here: a prefix with enough of a body is still a token
    const truncated = end < n && s.charCodeAt(end) === ELLIPSIS;
    // a JWT is three dot-joined runs
    if (e - a <= MAX_TOKEN && s.startsWith('eyJ', a) && hasDot(s, a, e) && JWT_FORMAT.pattern.test(s.slice(a, e))) {
      this.spans.push({ start: a, end: e, replacement: `[REDACTED:${JWT_FORMAT.kind}]`, kind: JWT_FORMAT.kind });
      return end;
    }
    // each dot-separated segment on its own
    let segStart = a;
    let lastSeg = a;
    for (let k = a; k <= e; k++) {
      if (k < e && s.charCodeAt(k) !== 46) continue;
      if (k > segStart) {
        let sa = segStart;
        while (sa < k && s.charCodeAt(sa) === 45) sa++; // `--token`, `-sk-…`: leading dashes are no token
        // a base64 secret (whsec_…) goes on over `+`, `/` and `=`, which end a run
        let tokenEnd = k;
        if (k === end && BASE64_PREFIXES.some((prefix) => s.startsWith(prefix, sa)))
          while (tokenEnd < n && isBase64Char(s.charCodeAt(tokenEnd))) tokenEnd++;
        const f = matchFormat(s, { start: sa, end: tokenEnd, truncated: truncated && k === e });
        if (f) {
          this.spans.push({ start: sa, end: tokenEnd, replacement: `[REDACTED:${f.kind}]`, kind: f.kind });
          if (tokenEnd > end) return tokenEnd;
        } else this.gluedToken(sa, k, truncated && k === e);
        lastSeg = segStart;
      }
      segStart = k + 1;
    }
    if (this.tokensOnly) return end;
    // the last segment as a name: `API_KEY=…`, `"token": "…"`, `?sig=…`, `--api-key …`, `Bearer …`
    if (e !== end || e - lastSeg > 128) return end;
    if (
      e - lastSeg === 6 &&
      (s.charCodeAt(lastSeg) | 32) === 98 /* b */ &&
      s.slice(lastSeg, e).toLowerCase() === 'bearer'
    )
      return this.bearer(end);
    const next = this.assignment(start, lastSeg, end);
    return next >= 0 ? next : end;
  }

  /**
   * A token glued to a word by `-` or `_` (`deploy-sk-proj-…`, `KEY_ghp_…`): the segment [from, to) did not
   * match as a whole, so a token may start after one of its dashes or underscores. Only a body that mixes
   * upper case, lower case and digits counts (a dashed package name does not), and at most four candidates
   * per segment are tested, so the cost stays linear.
   */
  private gluedToken(from: number, to: number, truncated: boolean): void {
    const { s } = this;
    let tests = 0;
    for (let p = from + 1; p + 8 <= to && tests < 4; p++) {
      const prev = s.charCodeAt(p - 1);
      if (prev !== 45 && prev !== 95) continue;
      const candidates = FORMATS_BY_FIRST.get(s[p]!);
      if (!candidates || !candidates.some(({ prefix }) => s.startsWith(prefix, p))) continue;
      tests++;
      const f = matchFormat(s, { start: p, end: to, truncated });
      if (f && mixesCases(s, p, to)) {
        this.spans.push({ start: p, end: to, replacement: `[REDACTED:${f.kind}]`, kind: f.kind });
        return;
      }
    }
  }

  /** `Bearer <token>` in free text. */
  private bearer(from: number): number {
    const { s, n } = this;
    let j = from;
    let sp = 0;
    while (j < n && isSpace(s.charCodeAt(j)) && sp < 4) {
      j++;
      sp++;
    }
    if (sp === 0) return from;
    const vs = j;
    while (j < n && (isBase64Char(s.charCodeAt(j)) || s.charCodeAt(j) === 46 || s.charCodeAt(j) === 126)) j++;
    const v = s.slice(vs, j);
    let digits = false;
    for (let k = 0; k < v.length && !digits; k++) digits = isDigit(v.charCodeAt(k));
    if ((v.length >= 8 && digits) || v.length >= 24) {
      if (!isPlaceholderValue(v)) this.spans.push({ start: vs, end: j, replacement: REDACTED });
      return j;
    }
    return from;
  }

  /**
   * A name followed by `=` or `:` (or, for a `--flag`, a space) and a value (assignment.ts). A value not redacted
   * as a whole still has its tokens redacted, and the scan goes on after it (each character is looked at a bounded
   * number of times, whatever the text). Returns where the scan goes on, or -1 when this is no assignment.
   */
  private assignment(runStart: number, nameStart: number, pos: number): number {
    const value = assignedValue(this.s, { runStart, nameStart, pos });
    if (!value) return -1;
    if (value.replacement) this.spans.push({ start: value.start, end: value.end, replacement: value.replacement });
    else this.tokensIn(value.start, value.end);
    return value.end;
  }

  /** The catalogue tokens inside [from, to). */
  private tokensIn(from: number, to: number): void {
    for (const sp of new Scanner(this.s.slice(from, to), true).run())
      this.spans.push({ ...sp, start: sp.start + from, end: sp.end + from });
  }
}
