import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { canonicalJson, constantTimeEqual, decryptSecret, encryptSecret } from './crypto';

describe('crypto helpers', () => {
  it('canonicalJson ignores key order at every depth but keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe(canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });

  it('encryptSecret round-trips with AES-256-GCM, uses a fresh IV and rejects tampering or a wrong key', () => {
    const key = randomBytes(32).toString('hex');
    const a = encryptSecret('s3cr3t-token', key);
    const b = encryptSecret('s3cr3t-token', key);
    expect(a).not.toBe(b);
    expect(a).not.toContain('s3cr3t');
    expect(decryptSecret(a, key)).toBe('s3cr3t-token');
    const parts = a.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => decryptSecret(parts.join('.'), key)).toThrow();
    expect(() => decryptSecret(a, randomBytes(32).toString('base64'))).toThrow();
  });

  it('constantTimeEqual compares strings of any length', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });
});

/** canonicalJson as it was before it became iterative: the oracle for documents without a `__proto__` key. */
function recursiveCanonicalJson(value: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) out[key] = sortKeys((v as Record<string, unknown>)[key]);
      return out;
    }
    return v;
  };
  return JSON.stringify(sortKeys(value));
}

const nested = (depth: number, leaf: string) => '{"a":['.repeat(depth) + leaf + ']}'.repeat(depth);

describe('canonicalJson', () => {
  // keys that objects order specially (array indices up to 2^32 - 2 come first, numerically) next to plain ones
  const key = fc.oneof(
    fc.constantFrom(
      '0',
      '1',
      '2',
      '10',
      '09',
      '-1',
      '1.5',
      '4294967294',
      '4294967295',
      '99999999999',
      'a',
      'B',
      'é',
      '',
    ),
    fc.string(),
  );
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom(null, true, false, 0, -0, 1.5, 1e21, -3),
      fc.string(),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(key, tie('value'), { maxKeys: 5 }),
    ),
  })).value;

  it('gives what the recursive copy and JSON.stringify gave for every document without a __proto__ key (stored digests stay valid)', () => {
    fc.assert(
      fc.property(json, (doc) => {
        const text = JSON.stringify(doc);
        fc.pre(!text.includes('"__proto__"'));
        // through JSON.parse, as request bodies arrive
        const parsed: unknown = JSON.parse(text);
        expect(canonicalJson(parsed)).toBe(recursiveCanonicalJson(parsed));
      }),
      { numRuns: 500 },
    );
    const odd = { b: undefined, a: [undefined, () => 1, Symbol('s'), NaN, Infinity], c: () => 1, d: new Date(0) };
    expect(canonicalJson(odd)).toBe(recursiveCanonicalJson(odd));
    for (const primitive of [null, 1, 'x', true]) expect(canonicalJson(primitive)).toBe(JSON.stringify(primitive));
  });

  it('writes documents deeper than its recursion bound (without recursion) exactly as shallower ones', () => {
    // wrapped in 70 levels, every document takes the iterative writer; its content must come out the same
    const wrap = (text: string) => '[{"w":'.repeat(35) + text + '}]'.repeat(35);
    fc.assert(
      fc.property(json, (doc) => {
        const text = JSON.stringify(doc);
        expect(canonicalJson(JSON.parse(wrap(text)))).toBe(wrap(canonicalJson(JSON.parse(text))));
      }),
      { numRuns: 300 },
    );
    const proto = '{"z":{"__proto__":{"x":1}},"10":1,"9":2}';
    expect(canonicalJson(JSON.parse(wrap(proto)))).toBe(wrap('{"9":2,"10":1,"z":{"__proto__":{"x":1}}}'));
  });

  it('keeps a nested __proto__ key: a document that differs only there gives another string', () => {
    const one = JSON.parse('{"metadata":{"a":{"__proto__":{"x":1}}}}') as unknown;
    const two = JSON.parse('{"metadata":{"a":{"__proto__":{"x":2}}}}') as unknown;
    expect(canonicalJson(one)).toBe('{"metadata":{"a":{"__proto__":{"x":1}}}}');
    expect(canonicalJson(one)).not.toBe(canonicalJson(two));
    // the recursive copy set a prototype instead, so both documents gave the same string
    expect(recursiveCanonicalJson(one)).toBe(recursiveCanonicalJson(two));
    expect(canonicalJson(JSON.parse('{"z":1,"__proto__":[1],"a":2}'))).toBe('{"__proto__":[1],"a":2,"z":1}');
    expect(canonicalJson({ b: 1, 10: 1, 9: 1, a: 1 })).toBe('{"9":1,"10":1,"a":1,"b":1}');
    expect(Object.prototype).not.toHaveProperty('x');
  });

  it('serialises a document nested 100 000 levels deep without recursion', () => {
    const text = nested(100_000, '"leaf"');
    const doc: unknown = JSON.parse(text);
    expect(() => recursiveCanonicalJson(doc)).toThrow(RangeError);
    expect(canonicalJson(doc)).toBe(text);
  });
});
