import fc from 'fast-check';
import { expectWithinBudget } from '@risk/time-budget';
import { compileGlob, globMatches, globSubject } from './glob';

// Suppression globs (docs/triage.md "Suppression rules"): semantics, equal to the two-pointer matcher they
// replaced, and a cost linear in the fingerprint whatever the glob (docs/security.md "Suppression globs in
// linear time").
const m = (glob: string, value: string) => globMatches(compileGlob(glob), value);

/**
 * The matcher before the linear one, kept as the reference of the semantics: `*` any run, `?` one code point,
 * `\` escapes the next one (a trailing `\` is literal), restarting after the last star on a mismatch
 * (|glob| × |value| steps).
 */
function referenceMatches(pattern: string, value: string): boolean {
  type Token = { kind: 'char'; ch: string } | { kind: 'one' } | { kind: 'star' };
  const tokens: Token[] = [];
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\' && i + 1 < chars.length) tokens.push({ kind: 'char', ch: chars[++i]! });
    else if (c === '*') {
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'one' });
    else tokens.push({ kind: 'char', ch: c });
  }
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
      p = starP + 1;
      i = ++starI;
    } else return false;
  }
  while (tokens[p]?.kind === 'star') p++;
  return p === tokens.length;
}

describe('fingerprint globs', () => {
  test.each([
    ['hf:acme/*', 'hf:acme/llama-3', true],
    ['hf:acme/*', 'hf:acme-evil/llama', false],
    ['*', '', true],
    ['*', 'anything/at:all', true],
    ['**', '', true],
    ['hf:*/lora-?', 'hf:acme/lora-1', true],
    ['hf:*/lora-?', 'hf:acme/lora-12', false],
    ['*llama*', 'hf:meta/llama-3', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'axxbyy', false],
    ['a*a', 'a', false],
    ['ab*ba', 'aba', false],
    ['*ab?d*', 'xxabcabxdx', true],
    ['*a?a?a*', 'aXaYaa', true],
    ['\\*star', '*star', true],
    ['\\*star', 'xstar', false],
    ['q\\?', 'q?', true],
    ['q\\?', 'qx', false],
    ['q\\', 'q\\', true],
    ['ü?', 'üß', true],
    ['?', '😀', true],
    ['??', '😀', false],
    ['*\ude00', '😀', false],
    ['', '', true],
    ['', 'x', false],
  ])('%s against %s → %s', (glob, value, expected) => {
    expect(m(glob, value)).toBe(expected);
    expect(referenceMatches(glob, value)).toBe(expected);
  });

  test('match exactly as the two-pointer matcher they replaced, on random globs and values', () => {
    // a small alphabet makes near misses, repeats and overlaps common; the astral and lone-surrogate
    // characters check that `?` and literals count code points as Array.from does
    const wellFormed = ['a', 'b', 'c', ':', '/', 'é', '😀'];
    const char = fc.constantFrom(...wellFormed, '\ud83d', '\ude00');
    const wildcard = fc.constantFrom('*', '?', '\\', '*', '?');
    const text = (c: fc.Arbitrary<string>, max: number) => fc.array(c, { maxLength: max }).map((a) => a.join(''));
    fc.assert(
      fc.property(text(fc.oneof(char, wildcard), 12), text(char, 16), (glob, value) => {
        expect(m(glob, value)).toBe(referenceMatches(glob, value));
      }),
      { numRuns: 10_000 },
    );
    // values built to match: the glob's stars and `?` replaced by random text (well-formed, so that joining the
    // pieces cannot pair two lone surrogates into another character)
    const wellFormedChar = fc.constantFrom(...wellFormed);
    const glob = text(fc.oneof(wellFormedChar, wildcard), 12);
    fc.assert(
      fc.property(glob, fc.array(text(wellFormedChar, 4), { minLength: 12, maxLength: 12 }), (glob, fills) => {
        let value = '';
        let k = 0;
        const g = Array.from(glob);
        for (let i = 0; i < g.length; i++) {
          if (g[i] === '\\' && i + 1 < g.length) value += g[++i];
          else if (g[i] === '*') value += fills[k++ % fills.length];
          else if (g[i] === '?') value += Array.from(fills[k++ % fills.length] + 'x')[0];
          else value += g[i];
        }
        expect(referenceMatches(glob, value)).toBe(true);
        expect(m(glob, value)).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });

  test('a subject prepared once matches as the string does', () => {
    const subject = globSubject('hf:acme/😀lora-1');
    expect(globMatches(compileGlob('hf:*/?lora-?'), subject)).toBe(true);
    expect(globMatches(compileGlob('hf:*/??lora-?'), subject)).toBe(false);
  });

  // What an org can store: 500 rules of at most 256 characters, against fingerprints of at most 512. The
  // two-pointer matcher took |glob| × |fingerprint| per match (0.6 ms for `*aaa…ab`): 500 of them against
  // 50 assets ran for about 15 s. Linear, the same work is 25,000 scans of at most 512 characters (8 words a
  // character for the longest `?` segment), well under the budget on the reference machine.
  const fingerprint = 'a'.repeat(512);
  const hostile: Array<[string, string]> = [
    ['a star and a near miss at the end', `*${'a'.repeat(254)}b`],
    ['a near miss in the middle', `*${'a'.repeat(253)}b*`],
    ['a near miss at the start of the middle', `*b${'a'.repeat(253)}*`],
    ['many stars', `${'*a'.repeat(127)}b`],
    ['a middle segment with ?', `*${'a?'.repeat(126)}b*`],
    ['?s and a miss at the end', `*${'?'.repeat(254)}b*`],
    ['a 255-long ? segment', `*${'?'.repeat(255)}*`],
  ];
  test.each(hostile)('linear on hostile globs: %s (500 rules × 50 assets within budget)', (_, glob) => {
    const rules = Array.from({ length: 500 }, () => compileGlob(glob));
    const assets = Array.from({ length: 50 }, (_, i) => globSubject(fingerprint.slice(0, 512 - (i % 3))));
    const { result } = expectWithinBudget(500, () => {
      let hits = 0;
      for (const subject of assets) for (const rule of rules) if (globMatches(rule, subject)) hits++;
      return hits;
    });
    expect(result).toBe(glob.endsWith('?'.repeat(255) + '*') ? 25_000 : 0);
  });

  test('the literal prefix feeds the SQL pre-filter', () => {
    expect(compileGlob('hf:acme/*').prefix).toBe('hf:acme/');
    expect(compileGlob('*x').prefix).toBe('');
    expect(compileGlob('a\\*b?').prefix).toBe('a*b');
    expect(compileGlob('😀\\?x*').prefix).toBe('😀?x');
  });
});
