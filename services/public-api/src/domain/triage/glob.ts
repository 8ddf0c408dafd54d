/**
 * Fingerprint globs of suppression rules (docs/triage.md "Suppression rules"): `*` matches any run of
 * characters (`/` and `:` included), `?` exactly one character, `\` makes the next character literal.
 * No regular expression is ever built from the pattern: the matcher below keeps one restart point (the
 * last `*`) and never backtracks further, so a match costs at most |pattern| × |fingerprint| steps
 * (256 × 512 with the API's caps) whatever the input, with no exponential case.
 */
type Token = { kind: 'char'; ch: string } | { kind: 'one' } | { kind: 'star' };

export function compileGlob(pattern: string): Token[] {
  const out: Token[] = [];
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\' && i + 1 < chars.length) out.push({ kind: 'char', ch: chars[++i]! });
    else if (c === '*') {
      // consecutive stars are one star
      if (out[out.length - 1]?.kind !== 'star') out.push({ kind: 'star' });
    } else if (c === '?') out.push({ kind: 'one' });
    else out.push({ kind: 'char', ch: c });
  }
  return out;
}

export function globMatches(tokens: Token[], value: string): boolean {
  const s = Array.from(value);
  let p = 0;
  let i = 0;
  let starP = -1;
  let starI = 0;
  while (i < s.length) {
    const t = tokens[p];
    if (t && t.kind === 'star') {
      starP = p++;
      starI = i;
    } else if (t && (t.kind === 'one' || t.ch === s[i])) {
      p++;
      i++;
    } else if (starP >= 0) {
      // restart after the last star, one character further on
      p = starP + 1;
      i = ++starI;
    } else return false;
  }
  while (tokens[p]?.kind === 'star') p++;
  return p === tokens.length;
}

/** The literal prefix of a glob (up to its first wildcard): a cheap SQL pre-filter (starts_with). */
export function globPrefix(tokens: Token[]): string {
  let out = '';
  for (const t of tokens) {
    if (t.kind !== 'char') break;
    out += t.ch;
  }
  return out;
}
