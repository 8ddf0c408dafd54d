// The secret-token catalogue and every pattern built from it (docs/security.md "Secrets never reach shared data").
// The ReDoS check (packages/enrichment/scripts/check-redos.ts) analyses the catalogue's patterns one by one and
// allows this file's RegExps built at run time: they are alternations of the catalogue's literal prefixes.
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
export const MAX_TOKEN = 32_768;
// a prefix followed by at least this many characters, cut off by an ellipsis (truncate() in the rules),
// is treated as a token: the start of a key is still part of the key
export const TRUNCATED_MIN_BODY = 8;
export const ELLIPSIS = 0x2026;

// formats by the first character of their prefixes, so most runs cost one map look-up
export const FORMATS_BY_FIRST = new Map<string, Array<{ prefix: string; format: SecretFormat }>>();
for (const format of SECRET_FORMATS)
  for (const prefix of format.prefixes) {
    const list = FORMATS_BY_FIRST.get(prefix[0]!) ?? [];
    list.push({ prefix, format });
    FORMATS_BY_FIRST.set(prefix[0]!, list);
  }

/** The catalogue format a run `s[start, end)` (cut to one token) matches, if any. */
export function matchFormat(s: string, run: { start: number; end: number; truncated: boolean }): SecretFormat | null {
  const { start: a, end: e, truncated } = run;
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

export const BASE64_PREFIXES = SECRET_FORMATS.filter((f) => f.base64Tail).flatMap((f) => f.prefixes);
// every catalogue prefix (case-sensitive): where findSecrets looks
export const PREFIX_SCAN = new RegExp(
  [...new Set([...SECRET_FORMATS, JWT_FORMAT].flatMap((f) => f.prefixes))].join('|'),
  'g',
);

// Nothing the scanner acts on can be in a text without one of these: an assignment or URL (`=`, `:`),
// user-info (`@`), a `--flag` or PEM dashes (`--`), `bearer`, a Dockerfile `ENV `, or a catalogue prefix.
// Most strings of a document (names, licence ids, SPDX ids) have none, and the native regex engine says so
// fastest. Literal alternatives only: linear.
export const MAYBE_SECRET = new RegExp(
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
