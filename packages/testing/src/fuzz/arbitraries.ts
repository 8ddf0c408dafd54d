import fc from 'fast-check';

/** Hostile pieces shared by the fuzz suites (docs/reliability.md "Fuzz"). */

/** a path parameter: traversal, encoded slashes, NUL, broken escapes, unicode, prefixes of real ids */
export const hostileSegment = fc.oneof(
  fc.constantFrom('..', '.', '%2F', '%2e%2e%2f', 'a%2Fb', '%00', '%', '%ZZ', 'é', '🦙', 'hf:org/model', 'thr_x', ' '),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** a query value: huge, negative, not a number, injection-looking */
export const hostileValue = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom('', '-1', '0', '1e309', 'NaN', 'true', '[]', '{}', "' OR 1=1 --", 'a'.repeat(5000)),
  fc.integer().map(String),
);

/** query keys that are nobody's: prototype names and junk */
export const HOSTILE_QUERY_KEYS = ['x', '__proto__', 'constructor', 'expand[]'] as const;

/** a valid-looking body with some of its fields replaced by anything (or an extra field added) */
export function withFieldsReplaced(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return valid.chain((b) => {
    const keys = b && typeof b === 'object' && !Array.isArray(b) ? Object.keys(b) : [];
    return fc
      .dictionary(fc.constantFrom(...keys, 'extra', '__proto__'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 })
      .map((over) => (keys.length ? { ...(b as object), ...over } : over));
  });
}

/** the Authorization header: one of the suite's valid credentials, or hostile ones */
export function authorizationArb(valid: Record<string, string>): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...Object.values(valid)), weight: 3 },
    fc.constantFrom(
      undefined,
      `Bearer rk_live_${'A'.repeat(8000)}`,
      `Bearer ${'e'.repeat(9000)}.${'e'.repeat(100)}.x`,
      'Bearer \u00ff\u0100',
      'Basic Zm9vOmJhcg==',
      'Bearer',
    ),
  );
}
