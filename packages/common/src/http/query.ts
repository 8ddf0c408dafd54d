/**
 * Query-string parser for `app.set('query parser', parseQueryString)`. Express 5's parsers either cap
 * at 1000 pairs (node:querystring) or turn >20 repeated values into an object (qs), which breaks
 * 500-key look-ups. This one has no pair limit of its own (the URL is bounded by the server's header
 * size), strips a trailing `[]` from keys and gives a string for one value, an array for several,
 * and always an array for keys written with `[]`.
 */
export type ParsedQuery = Record<string, string | string[]>;

/** A query key as the parsed query names it: `expand[]` → `expand`. */
export const queryKeyName = (rawKey: string): string => (rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey);

export function parseQueryString(qs: string): ParsedQuery {
  const out: ParsedQuery = Object.create(null);
  if (!qs) return out;
  for (const [rawKey, value] of new URLSearchParams(qs)) {
    const isList = rawKey.endsWith('[]');
    const key = queryKeyName(rawKey);
    const prev = out[key];
    if (prev === undefined) out[key] = isList ? [value] : value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[key] = [prev, value];
  }
  return out;
}
