import fc from 'fast-check';
import { expectWithinBudget } from '@risk/time-budget';
import { forEachQueryPair, parseQueryString } from './query';

/** on the quiet reference machine (@risk/time-budget) */
const BOUND_MS = 1500;

describe('parseQueryString', () => {
  it('turns key[] into arrays and repeated keys into arrays, single keys into strings', () => {
    expect(parseQueryString('expand[]=findings&expand[]=aibom&limit=5&x=1&x=2')).toEqual({
      expand: ['findings', 'aibom'],
      limit: '5',
      x: ['1', '2'],
    });
    expect(parseQueryString('expand[]=findings')).toEqual({ expand: ['findings'] });
  });

  it('keeps all 500 repeated values (node:querystring stops at 1000 pairs, qs reshapes >20)', () => {
    const qs = Array.from({ length: 500 }, (_, i) => `lookup_name=n${i}&lookup_version=v${i}&fingerprints=f${i}`).join(
      '&',
    );
    const parsed = parseQueryString(qs);
    expect(parsed.lookup_name).toHaveLength(500);
    expect(parsed.lookup_version).toHaveLength(500);
    expect(parsed.fingerprints).toHaveLength(500);
    expect((parsed.lookup_name as string[])[499]).toBe('n499');
  });

  it('decodes percent-encoding and +', () => {
    expect(parseQueryString('url=https%3A%2F%2Fa.example%2Fx%3Fy%3D1&q=a+b')).toEqual({
      url: 'https://a.example/x?y=1',
      q: 'a b',
    });
  });

  it('has no prototype to pollute', () => {
    const parsed = parseQueryString('__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(parsed.__proto__).toBe('x');
  });
});

describe('forEachQueryPair (one pass; docs/performance.md "the 500-key look-up")', () => {
  const pairsOf = (qs: string) => {
    const out: Array<[string, string]> = [];
    forEachQueryPair(qs, (name, value) => out.push([name, value]));
    return out;
  };
  const reference = (qs: string) => [...new URLSearchParams(qs)];

  it('reads the pairs URLSearchParams reads, for arbitrary query strings', () => {
    // the characters that matter to the grammar, escapes valid and broken, UTF-8 and not, and any string
    const piece = fc.oneof(
      fc.constantFrom('&', '=', '+', '?', '%', '[]', 'a', 'Z', '0', ' ', '%2', '%zz', '%%', '%20', '%2B', '%26', '%3D'),
      fc
        .uint8Array({ minLength: 1, maxLength: 4 })
        .map((b) => [...b].map((x) => `%${x.toString(16).padStart(2, '0')}`).join('')),
      fc.string({ maxLength: 3, unit: 'binary' }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const qs = pieces.join('');
        expect(pairsOf(qs)).toEqual(reference(qs));
      }),
      { numRuns: 20_000 },
    );
  });

  it('stays linear on pairs without "=" (a pair does not search the rest of the string for one)', () => {
    // 1 MiB of `a&`: linear is tens of ms, a search per pair to the end ~10^11 steps
    const qs = 'a&'.repeat(512 * 1024) + 'b=1';
    const { result } = expectWithinBudget(BOUND_MS, () => pairsOf(qs));
    expect(result).toHaveLength(512 * 1024 + 1);
    expect(result.at(-1)).toEqual(['b', '1']);
  });
});
