/**
 * Query-string parser for `app.set('query parser', parseQueryString)`. Express 5's parsers either cap
 * at 1000 pairs (node:querystring) or turn >20 repeated values into an object (qs), which breaks
 * 500-key look-ups. This one has no pair limit of its own (the URL is bounded by the server's header
 * size), strips a trailing `[]` from keys and gives a string for one value, an array for several,
 * and always an array for keys written with `[]`.
 *
 * Pairs are read as URLSearchParams reads them (application/x-www-form-urlencoded: `&`-separated,
 * `+` is a space, percent-decoding as UTF-8), in one pass that decodes only what is encoded: a 500-key
 * look-up spent ~12 % of its time in two URLSearchParams walks (docs/performance.md, "the 500-key
 * look-up"). What the fast path cannot decode exactly (a non-ASCII query, a malformed escape) goes to
 * URLSearchParams itself; query.test.ts checks the two agree on arbitrary strings.
 */
export type ParsedQuery = Record<string, string | string[]>;

/** A query key as the parsed query names it: `expand[]` → `expand`. */
export const queryKeyName = (rawKey: string): string => (rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey);

const NON_ASCII = /[^\x00-\x7f]/;
const PLUS = /\+/g;

/** decodes one ASCII name or value; undefined when only URLSearchParams' lenient decoding gives its meaning */
function decode(s: string): string | undefined {
  if (s.includes('+')) s = s.replace(PLUS, ' ');
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined; // a malformed escape or invalid UTF-8: URLSearchParams keeps or replaces it
  }
}

/** every (name, value) pair in order, as `new URLSearchParams(qs)` iterates them */
export function forEachQueryPair(qs: string, visit: (name: string, value: string) => void): void {
  if (!qs) return;
  if (!NON_ASCII.test(qs)) {
    const pairs: Array<[string, string]> = [];
    let ok = true;
    // the next '=' at or after `start`, searched again only once passed: many pairs without '=' stay linear
    let eq = -1;
    // URLSearchParams drops one leading '?'
    for (let start = qs.charCodeAt(0) === 63 ? 1 : 0; start <= qs.length && ok;) {
      let end = qs.indexOf('&', start);
      if (end === -1) end = qs.length;
      if (end > start) {
        if (eq < start && eq !== qs.length) {
          eq = qs.indexOf('=', start);
          if (eq === -1) eq = qs.length;
        }
        const split = eq > end ? end : eq;
        const name = decode(qs.slice(start, split));
        const value = split === end ? '' : decode(qs.slice(split + 1, end));
        if (name === undefined || value === undefined) ok = false;
        else pairs.push([name, value]);
      }
      start = end + 1;
    }
    if (ok) {
      for (const [name, value] of pairs) visit(name, value);
      return;
    }
  }
  for (const [name, value] of new URLSearchParams(qs)) visit(name, value);
}

export function parseQueryString(qs: string): ParsedQuery {
  const out: ParsedQuery = Object.create(null);
  forEachQueryPair(qs, (rawKey, value) => {
    const isList = rawKey.endsWith('[]');
    const key = queryKeyName(rawKey);
    const prev = out[key];
    if (prev === undefined) out[key] = isList ? [value] : value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[key] = [prev, value];
  });
  return out;
}
