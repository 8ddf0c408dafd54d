// Assignments in free text for the scanner (scanner.ts; docs/security.md "Secrets never reach shared data"): a name
// followed by `=` or `:` (or, for a `--flag`, a space) and its value.
import { matchFormat, REDACTED, REDACTED_IN_URL } from './catalogue';
import { endsBareValue, isAlnum, isQuote, isSpace, isWhitespace } from './chars';
import { AUTH_SCHEMES, isPlaceholderValue, isSecretKeyName, looksRandom } from './names';

/** Where a name's run starts, where the name's last segment starts, and the end of the run. */
export interface AssignmentAt {
  runStart: number;
  nameStart: number;
  pos: number;
}

/** An assignment's value [start, end): redacted with `replacement`, or (null) kept with only its tokens redacted. */
export interface AssignedValue {
  start: number;
  end: number;
  replacement: string | null;
}

/**
 * The value assigned to the name at `at`. The value is redacted when the name looks secret, or — in a URL query
 * (`?x=…&`) — when the value looks generated. Null when this is no assignment.
 */
export function assignedValue(s: string, at: AssignmentAt): AssignedValue | null {
  const { runStart, nameStart, pos } = at;
  const n = s.length;
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
  if (sep !== 61 /* = */ && sep !== 58 /* : */ && !flagForm) return null;
  // only now the name's words (the cost of most runs stays a few character look-ups)
  const secretName = isSecretKeyName(s.slice(nameStart, pos));
  if (!secretName && !(inQuery && sep === 61)) return null;
  // `PASSWORD= next` in an env file is an empty value (`api_key = '…'` has spaces on both sides)
  if (sep === 61 && sp === 0 && j + 1 < n && isSpace(s.charCodeAt(j + 1))) return null;
  if (sep === 61 || sep === 58) {
    j++;
    if (sep === 58 && s.startsWith('//', j)) return null; // a URL scheme, not an assignment
    if (j < n && s.charCodeAt(j) === 61) j++; // `==`
  }
  sp = 0;
  while (j < n && isSpace(s.charCodeAt(j)) && sp < 4) {
    j++;
    sp++;
  }
  if (j >= n) return null;
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
  if (ve <= vs) return null;
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
  if (ve <= vs) return null;
  const value = s.slice(vs, ve);
  if (flagForm && value.startsWith('-')) return null;
  if (
    isPlaceholderValue(value) ||
    (!secretName && (!looksRandom(value) || matchFormat(s, { start: vs, end: ve, truncated: false })))
  ) {
    return { start: vs, end: ve, replacement: null };
  }
  return { start: vs, end: ve, replacement: inQuery ? REDACTED_IN_URL : REDACTED };
}
