/**
 * The one redaction module (docs/security.md "Secrets never reach shared data"). Everything the engine
 * derives from a signal passes through `redactDeep` before it is stored or served, the leaked-secrets rule
 * (R20) finds tokens with `findSecrets`, and the services' logger runs `redactText` over every line.
 *
 * Linear time by construction: a hand scanner walks the text once, cutting it into runs of token
 * characters; each run is tested against ANCHORED patterns that are a literal prefix plus one bounded
 * character class (src/data/secret-formats.json), so no match can backtrack across runs and each test
 * costs at most its pattern's bound. URL user-info, `name=value` / `name: value` assignments with a
 * secret-looking name, `Bearer <token>` and PEM private-key blocks are found by the same scan or by
 * indexOf — no regular expression runs over the whole input.
 */
import formatsData from './data/secret-formats.json';

/** What replaces a secret in text. */
export const REDACTED = '[REDACTED]';
/** What replaces a secret inside a URL (user-info, query value): brackets are not valid there. */
export const REDACTED_IN_URL = 'REDACTED';

export interface SecretFormat {
  kind: string;
  prefixes: readonly string[];
  /** anchored: tested against one run of token characters */
  pattern: RegExp;
  /** the secret continues with base64 characters (`+`, `/`, `=`) after the run */
  base64Tail: boolean;
}

/** The token catalogue (kinds, prefixes, anchored linear-time patterns): the ReDoS check reads it too. */
export const SECRET_FORMATS: readonly SecretFormat[] = formatsData.formats.map((f) => ({
  kind: f.kind,
  prefixes: f.prefixes,
  pattern: new RegExp(f.pattern),
  base64Tail: 'base64_tail' in f && f.base64_tail === true,
}));
export const JWT_FORMAT: SecretFormat = {
  kind: formatsData.jwt.kind,
  prefixes: formatsData.jwt.prefixes,
  pattern: new RegExp(formatsData.jwt.pattern),
  base64Tail: false,
};

// a run longer than this is no token of the catalogue (the longest bound is a JWT's)
const MAX_TOKEN = 32_768;
// a prefix followed by at least this many characters, cut off by an ellipsis (truncate() in the rules),
// is treated as a token: the start of a key is still part of the key
const TRUNCATED_MIN_BODY = 8;
const ELLIPSIS = 0x2026;

// ── secret-looking names ──

// names whose LAST word makes them secret: API_KEY, GITHUB_TOKEN, db_password, x-amz-signature, sig, set-cookie
const SECRET_LAST_WORDS = new Set([
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'pass',
  'passphrase',
  'credential',
  'credentials',
  'creds',
  'cookie',
  'auth',
  'authorization',
  'jwt',
  'pat',
  'sig',
  'signature',
  'apikey',
  'accesskey',
  'privatekey',
  'secretkey',
  'bearer',
  'ciphertext',
  'key',
]);
// words that make a name secret wherever they stand: client_secret_value, secret_ciphertext, passwordHash
const SECRET_ANY_WORDS = new Set(['secret', 'password', 'passwd', 'passphrase', 'apikey', 'authorization']);
// `<word>_key` / `<word>_token` names that are not credentials (database keys, tokenizer special tokens)
const NOT_SECRET_QUALIFIERS = new Set([
  'public',
  'primary',
  'foreign',
  'sort',
  'partition',
  'idempotency',
  'cache',
  'lookup',
  'hash',
  'map',
  'unique',
  'dedupe',
  'group',
  'routing',
  'index',
  'object',
  'row',
  'column',
  'join',
  'bos',
  'eos',
  'pad',
  'unk',
  'sep',
  'cls',
  'mask',
  'max',
  'min',
  'num',
  'special',
  'start',
  'end',
  'image',
  'audio',
  'video',
]);

function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}
function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isAlnum(c: number): boolean {
  return isLower(c) || isUpper(c) || isDigit(c);
}

/** The lower-case words of a name: `OPENAI_API_KEY`, `x-api-key`, `apiKey` → [openai, api, key]. */
function nameWords(name: string): string[] {
  const words: string[] = [];
  let cur = '';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (!isAlnum(c)) {
      if (cur) words.push(cur);
      cur = '';
      continue;
    }
    // camelCase boundary: a capital after a lower-case letter or digit
    if (isUpper(c) && cur && i > 0 && (isLower(name.charCodeAt(i - 1)) || isDigit(name.charCodeAt(i - 1)))) {
      words.push(cur);
      cur = '';
    }
    cur += String.fromCharCode(isUpper(c) ? c + 32 : c);
  }
  if (cur) words.push(cur);
  return words;
}

// documents repeat the same few key names: their verdicts are remembered (bounded)
const keyVerdicts = new Map<string, boolean>();

/** Whether a key, header, env variable, query parameter or flag name says its value is a credential. */
export function isSecretKeyName(name: string): boolean {
  let verdict = keyVerdicts.get(name);
  if (verdict === undefined) {
    verdict = judgeKeyName(name);
    if (keyVerdicts.size >= 4096) keyVerdicts.clear();
    keyVerdicts.set(name, verdict);
  }
  return verdict;
}

function judgeKeyName(name: string): boolean {
  if (name.length === 0 || name.length > 128) return false;
  const words = nameWords(name);
  const last = words[words.length - 1];
  if (last === undefined) return false;
  // also at the end of a run-together word: PGPASSWORD, clientsecret, openaiapikey
  for (const w of words) for (const sw of SECRET_ANY_WORDS) if (w.endsWith(sw)) return true;
  if (!SECRET_LAST_WORDS.has(last)) return false;
  const before = words[words.length - 2];
  // a lone `key` is structure far more often than a credential (SPDX DictionaryEntry {key, value}, sort
  // keys); a credential under it is still found by its format or, in a URL query, by looking generated
  if (last === 'key' && before === undefined) return false;
  if ((last === 'key' || last === 'token') && before !== undefined && NOT_SECRET_QUALIFIERS.has(before)) return false;
  return true;
}

/**
 * A value that names a secret rather than holding one: `${VAR}`, `$VAR`, `<your-key>`, `{{ secrets.X }}`,
 * `%VAR%`, an UPPER_SNAKE env variable name, an obvious placeholder, or an already redacted value.
 */
export function isPlaceholderValue(value: string): boolean {
  const v = value.trim();
  if (v.length === 0) return true;
  const first = v.charCodeAt(0);
  const lastCh = v.charCodeAt(v.length - 1);
  // `${VAR}`, `$VAR` (upper case: a password may well start with `$`)
  if (first === 36 /* $ */ && (v.charCodeAt(1) === 123 /* { */ || isEnvName(v, 1))) return true;
  if (first === 60 /* < */ && lastCh === 62 /* > */) return true;
  if (v.startsWith('{{') || (first === 37 /* % */ && lastCh === 37 && v.length > 2)) return true;
  if (v.length > 200) return false;
  const lower = v.toLowerCase();
  if (['null', 'none', 'true', 'false', 'undefined', 'nil', '""', "''"].includes(lower)) return true;
  if (v.includes('REDACTED')) return true;
  if (/^(?:x+|\*+|\.+|-+|#+|0+)$/i.test(v)) return true;
  for (const w of ['your', 'changeme', 'change-me', 'placeholder', 'example', 'replace', 'xxxx', '****', '...'])
    if (lower.includes(w)) return true;
  // an env variable's name with an underscore (GITHUB_TOKEN): a reference to where the secret lives
  return v.includes('_') && isEnvName(v, 0);
}

/** `v` from `from` on is an UPPER_SNAKE name. */
function isEnvName(v: string, from: number): boolean {
  if (from >= v.length || !isUpper(v.charCodeAt(from))) return false;
  for (let i = from; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c !== 95 && !isUpper(c) && !isDigit(c)) return false;
  }
  return true;
}

/** A value that looks generated (long, mixed letters and digits): counts as secret in a URL query. */
function looksRandom(v: string): boolean {
  if (v.length < 20 || v.length > 4096) return false;
  let upper = 0;
  let lower = 0;
  let digit = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (isUpper(c)) upper++;
    else if (isLower(c)) lower++;
    else if (isDigit(c)) digit++;
  }
  return digit > 0 && ((upper > 0 && lower > 0) || digit + lower >= v.length - 2);
}

// ── the scanner ──

interface Span {
  start: number;
  end: number;
  replacement: string;
  kind?: string;
}

// token characters: [A-Za-z0-9_-]; runs also take '.', so a JWT stays one run
function isTokenChar(c: number): boolean {
  return isAlnum(c) || c === 95 || c === 45;
}
function isRunChar(c: number): boolean {
  return isTokenChar(c) || c === 46;
}
function isBase64Char(c: number): boolean {
  return isTokenChar(c) || c === 43 || c === 47 || c === 61;
}
function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}
function isQuote(c: number): boolean {
  return c === 34 || c === 39 || c === 96;
}
function isWhitespace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;
}
// where an unquoted value ends: whitespace, quotes, separators of lists, queries and markup
function endsBareValue(c: number): boolean {
  return (
    isWhitespace(c) ||
    isQuote(c) ||
    c === 38 /* & */ ||
    c === 44 /* , */ ||
    c === 59 /* ; */ ||
    c === 60 /* < */ ||
    c === 62 /* > */ ||
    c === 40 /* ( */ ||
    c === 41 /* ) */ ||
    c === 123 /* { */ ||
    c === 125 /* } */ ||
    c === 91 /* [ */ ||
    c === 93 /* ] */ ||
    c === 124 /* | */ ||
    c === 92 /* \ */
  );
}
// where a URL's authority ends
function endsAuthority(c: number): boolean {
  return (
    isWhitespace(c) ||
    isQuote(c) ||
    c === 47 /* / */ ||
    c === 63 /* ? */ ||
    c === 35 /* # */ ||
    c === 60 ||
    c === 62 ||
    c === 92 ||
    c === 41 ||
    c === 93 ||
    c === 125
  );
}

const AUTH_SCHEMES = new Set(['bearer', 'basic', 'token', 'bot', 'digest', 'apikey']);

// formats by the first character of their prefixes, so most runs cost one map look-up
const FORMATS_BY_FIRST = new Map<string, Array<{ prefix: string; format: SecretFormat }>>();
for (const format of SECRET_FORMATS)
  for (const prefix of format.prefixes) {
    const list = FORMATS_BY_FIRST.get(prefix[0]!) ?? [];
    list.push({ prefix, format });
    FORMATS_BY_FIRST.set(prefix[0]!, list);
  }

/** The catalogue format a run (cut to one token) matches, if any. */
function matchFormat(s: string, a: number, e: number, truncated: boolean): SecretFormat | null {
  const len = e - a;
  if (len < 8) return null;
  const candidates = FORMATS_BY_FIRST.get(s[a]!);
  if (!candidates) return null;
  for (const { prefix, format } of candidates) {
    if (!s.startsWith(prefix, a)) continue;
    if (len <= MAX_TOKEN && format.pattern.test(s.slice(a, e))) return format;
    if (truncated && len - prefix.length >= TRUNCATED_MIN_BODY) return format;
  }
  return null;
}

/** `-----BEGIN … PRIVATE KEY-----` … `-----END … -----` blocks (to the end of the text when cut off). */
function privateKeySpans(s: string, spans: Span[]): void {
  let from = 0;
  for (;;) {
    const begin = s.indexOf('-----BEGIN ', from);
    if (begin < 0) return;
    const headerEnd = s.indexOf('-----', begin + 11);
    if (headerEnd < 0) {
      // a header cut off by truncation: redact what is left if it names a private key
      if (s.length - begin < 64 && s.includes('PRIVATE', begin))
        spans.push({ start: begin, end: s.length, replacement: `[REDACTED:private_key]`, kind: 'private_key' });
      return;
    }
    const header = headerEnd - begin <= 80 ? s.slice(begin + 11, headerEnd) : '';
    if (!header.includes('PRIVATE KEY')) {
      from = begin + 11;
      continue;
    }
    const endMarker = s.indexOf('-----END ', headerEnd + 5);
    let end = s.length;
    if (endMarker >= 0) {
      const close = s.indexOf('-----', endMarker + 9);
      end = close >= 0 ? close + 5 : s.length;
    }
    spans.push({ start: begin, end, replacement: `[REDACTED:private_key]`, kind: 'private_key' });
    from = end;
  }
}

const BASE64_PREFIXES = SECRET_FORMATS.filter((f) => f.base64Tail).flatMap((f) => f.prefixes);
// every catalogue prefix (case-sensitive): where findSecrets looks
const PREFIX_SCAN = new RegExp([...new Set([...SECRET_FORMATS, JWT_FORMAT].flatMap((f) => f.prefixes))].join('|'), 'g');

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

class Scanner {
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
        const f = matchFormat(s, sa, tokenEnd, truncated && k === e);
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
      const f = matchFormat(s, p, to, truncated);
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
   * A name followed by `=` or `:` (or, for a `--flag`, a space) and a value. The value is redacted when
   * the name looks secret, or — in a URL query (`?x=…&`) — when the value looks generated.
   * Returns where the scan goes on, or -1 when this is no assignment.
   */
  private assignment(runStart: number, nameStart: number, pos: number): number {
    const { s, n } = this;
    const before = runStart > 0 ? s.charCodeAt(runStart - 1) : 0;
    const inQuery = before === 63 /* ? */ || before === 38; /* & */
    let j = pos;
    if (j < n && isQuote(s.charCodeAt(j))) j++; // the closing quote of a JSON / YAML key
    let sp = 0;
    while (j < n && isSpace(s.charCodeAt(j)) && sp < 4) {
      j++;
      sp++;
    }
    const sep = j < n ? s.charCodeAt(j) : 0;
    // `--api-key VALUE`, and a Dockerfile's legacy `ENV API_KEY value`
    const flagForm =
      sp === 1 &&
      j === pos + 1 &&
      (s.startsWith('--', nameStart) || (runStart >= 4 && s.startsWith('ENV ', runStart - 4)));
    if (sep !== 61 /* = */ && sep !== 58 /* : */ && !flagForm) return -1;
    // only now the name's words (the cost of most runs stays a few character look-ups)
    const secretName = isSecretKeyName(s.slice(nameStart, pos));
    if (!secretName && !(inQuery && sep === 61)) return -1;
    // `PASSWORD= next` in an env file is an empty value (`api_key = '…'` has spaces on both sides)
    if (sep === 61 && sp === 0 && j + 1 < n && isSpace(s.charCodeAt(j + 1))) return -1;
    if (sep === 61 || sep === 58) {
      j++;
      if (sep === 58 && s.startsWith('//', j)) return -1; // a URL scheme, not an assignment
      if (j < n && s.charCodeAt(j) === 61) j++; // `==`
    }
    sp = 0;
    while (j < n && isSpace(s.charCodeAt(j)) && sp < 4) {
      j++;
      sp++;
    }
    if (j >= n) return -1;
    const q = s.charCodeAt(j);
    let vs: number;
    let ve: number;
    if (isQuote(q)) {
      vs = j + 1;
      ve = vs;
      while (ve < n && s.charCodeAt(ve) !== q && s.charCodeAt(ve) !== 10 && s.charCodeAt(ve) !== 92) ve++;
    } else if (q === 36 /* $ */ && s.charCodeAt(j + 1) === 123 /* { */) {
      // `${VAR}`: a reference, up to its brace
      vs = j;
      ve = j + 2;
      while (ve < n && s.charCodeAt(ve) !== 125 && !isWhitespace(s.charCodeAt(ve))) ve++;
      if (ve < n && s.charCodeAt(ve) === 125) ve++;
    } else {
      vs = j;
      ve = vs;
      while (ve < n && !endsBareValue(s.charCodeAt(ve))) ve++;
    }
    if (ve <= vs) return -1;
    // `Authorization: Bearer <token>`: the scheme stays, the credential goes
    let schemeEnd = vs;
    while (schemeEnd < ve && isAlnum(s.charCodeAt(schemeEnd))) schemeEnd++;
    if (schemeEnd - vs <= 6 && AUTH_SCHEMES.has(s.slice(vs, schemeEnd).toLowerCase())) {
      let k = schemeEnd;
      while (k < n && isSpace(s.charCodeAt(k))) k++;
      if (k > schemeEnd) {
        if (isQuote(q)) vs = k;
        else {
          vs = k;
          ve = k;
          while (ve < n && !endsBareValue(s.charCodeAt(ve))) ve++;
        }
      }
    }
    if (ve <= vs) return -1;
    const value = s.slice(vs, ve);
    if (flagForm && value.startsWith('-')) return -1;
    if (isPlaceholderValue(value) || (!secretName && (!looksRandom(value) || matchFormat(s, vs, ve, false)))) {
      // not redacted as a whole: its tokens still are, and the scan goes on after it (each character is
      // looked at a bounded number of times, whatever the text)
      this.tokensIn(vs, ve);
      return ve;
    }
    this.spans.push({ start: vs, end: ve, replacement: inQuery ? REDACTED_IN_URL : REDACTED });
    return ve;
  }

  /** The catalogue tokens inside [from, to). */
  private tokensIn(from: number, to: number): void {
    for (const sp of new Scanner(this.s.slice(from, to), true).run())
      this.spans.push({ ...sp, start: sp.start + from, end: sp.end + from });
  }
}

function applySpans(s: string, spans: Span[]): string {
  if (spans.length === 0) return s;
  spans.sort((x, y) => x.start - y.start || y.end - x.end);
  let out = '';
  let at = 0;
  for (const sp of spans) {
    if (sp.end <= at) continue; // inside a span already replaced
    out += s.slice(at, Math.max(at, sp.start)) + (sp.start >= at ? sp.replacement : '');
    at = sp.end;
  }
  return out + s.slice(at);
}

/** Replace every exact occurrence of a known secret value (collected with key context). */
function scrubKnown(s: string, known: readonly string[]): string {
  let out = s;
  for (const v of known) if (out.includes(v)) out = out.split(v).join(REDACTED);
  return out;
}

// Nothing the scanner acts on can be in a text without one of these: an assignment or URL (`=`, `:`),
// user-info (`@`), a `--flag` or PEM dashes (`--`), `bearer`, a Dockerfile `ENV `, or a catalogue prefix.
// Most strings of a document (names, licence ids, SPDX ids) have none, and the native regex engine says so
// fastest. Literal alternatives only: linear.
const MAYBE_SECRET = new RegExp(
  [
    '[=@:]',
    '--',
    'bearer',
    'ENV ',
    // the prefixes are [A-Za-z0-9_-] only: no character to escape
    ...new Set([...SECRET_FORMATS, JWT_FORMAT].flatMap((f) => f.prefixes)),
  ].join('|'),
  'i',
);

/** Text with every credential found in it replaced. Linear in the length of the text. */
export function redactText(s: string, known: readonly string[] = []): string {
  const text = known.length ? scrubKnown(s, known) : s;
  if (text.length < 8 || !MAYBE_SECRET.test(text)) return text;
  const spans = new Scanner(text, false).run();
  privateKeySpans(text, spans);
  return applySpans(text, spans);
}

/** A URL with its user-info password (or token user-info) and secret query values replaced. */
export function redactUrl(u: string): string {
  return redactText(u);
}

export interface SecretHit {
  kind: string;
  start: number;
  end: number;
}

/**
 * Well-known tokens and private keys in a text (for the leaked-secrets rule): kind and offsets only.
 * Name-based assignments are not hits here: a `PASSWORD=…` is redacted, but R20 reports it from the
 * parsed config with its key, where the context is known.
 */
export function findSecrets(s: string): SecretHit[] {
  const spans = new Scanner(s, true).run();
  privateKeySpans(s, spans);
  return spans
    .filter((sp): sp is Span & { kind: string } => sp.kind !== undefined)
    .sort((x, y) => x.start - y.start)
    .map((sp) => ({ kind: sp.kind, start: sp.start, end: sp.end }));
}

/** The kind of a single token (`sk-proj-…` → openai_api_key), or null. */
export function secretKind(token: string): string | null {
  const t = token.trim();
  if (JWT_FORMAT.pattern.test(t)) return JWT_FORMAT.kind;
  return matchFormat(t, 0, t.length, false)?.kind ?? null;
}

// ── structures ──

const MAX_DEPTH = 64;
const MAX_KNOWN = 64;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function flagName(v: unknown): string | null {
  if (typeof v !== 'string' || !v.startsWith('-') || v.includes('=') || v.length > 64) return null;
  return v.replace(/^-{1,2}/, '');
}

/** Whether an object is a `{name, value}` pair whose value is secret (server.json env vars and headers). */
function secretPair(o: Record<string, unknown>): boolean {
  return typeof o.name === 'string' && (isSecretKeyName(o.name) || o.isSecret === true || o.is_secret === true);
}

interface WalkState {
  known: readonly string[];
  // the AI-BOM repeats names, purls and licences across its renderings: each distinct string is scanned once
  cache: Map<string, string>;
}

function walkString(v: string, st: WalkState): string {
  let out = st.cache.get(v);
  if (out === undefined) {
    out = redactText(v, st.known);
    st.cache.set(v, out);
  }
  return out;
}

function walk(v: unknown, depth: number, secret: boolean, st: WalkState): unknown {
  if (typeof v === 'string') return secret && !isPlaceholderValue(v) ? REDACTED : walkString(v, st);
  if (depth > MAX_DEPTH) return null;
  if (Array.isArray(v)) {
    const out: unknown[] = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const flag = i > 0 ? flagName(v[i - 1]) : null;
      const afterSecretFlag =
        flag !== null && isSecretKeyName(flag) && typeof v[i] === 'string' && !(v[i] as string).startsWith('-');
      out[i] = walk(v[i], depth + 1, secret || afterSecretFlag, st);
    }
    return out;
  }
  if (!isPlainObject(v)) return v;
  const pair = secretPair(v);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const isSecret = secret || isSecretKeyName(k) || (pair && (k === 'value' || k === 'default'));
    out[k.length >= 8 ? walkString(k, st) : k] = walk(x, depth + 1, isSecret, st);
  }
  return out;
}

/**
 * A copy of a JSON-like value with secrets redacted: string values under secret-looking keys (and
 * `{name, value}` pairs, `--flag value` arguments), every string's text through redactText, and exact
 * occurrences of `known` values. Non-plain objects are returned as they are.
 */
export function redactDeep<T>(value: T, known: readonly string[] = []): T {
  return walk(value, 0, false, { known, cache: new Map() }) as T;
}

/**
 * Values that are secret because of where they stand (an env value under `API_KEY`, a header under
 * `Authorization`, a `--token` argument, a `{name, value, isSecret}` pair), so that the same value is
 * also scrubbed wherever else it appears. Longest first; bounded in number.
 */
export function collectSecretValues(root: unknown): string[] {
  const found = new Set<string>();
  const add = (v: unknown) => {
    if (typeof v !== 'string' || found.size >= MAX_KNOWN) return;
    let t = v.trim();
    const sp = t.indexOf(' ');
    if (sp > 0 && AUTH_SCHEMES.has(t.slice(0, sp).toLowerCase())) t = t.slice(sp + 1).trim();
    if (t.length >= 6 && !isPlaceholderValue(t)) found.add(t);
  };
  const visit = (v: unknown, depth: number, secret: boolean): void => {
    if (depth > MAX_DEPTH || found.size >= MAX_KNOWN) return;
    if (typeof v === 'string') {
      if (secret) add(v);
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        const flag = i > 0 ? flagName(v[i - 1]) : null;
        visit(x, depth + 1, secret || (flag !== null && isSecretKeyName(flag)));
      });
      return;
    }
    if (!isPlainObject(v)) return;
    const pair = secretPair(v);
    for (const [k, x] of Object.entries(v))
      visit(x, depth + 1, secret || isSecretKeyName(k) || (pair && (k === 'value' || k === 'default')));
  };
  visit(root, 0, false);
  return [...found].sort((a, b) => b.length - a.length);
}
