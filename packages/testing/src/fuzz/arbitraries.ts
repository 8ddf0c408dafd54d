import { JSON_BODY_MAX_DEPTH } from '@risk/contracts';
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

/**
 * Raw JSON text with `inner` as the value of one field of `body` (a top-level field, or one under `metadata`
 * where the free-form values live), written as text: JSON.stringify would overflow this process's stack on the
 * deep values below, and would drop a `__proto__` key that is not an own property.
 */
function withRawField(body: unknown, inner: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const base = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const keys = [...Object.keys(base), 'x'];
  const marker = '@@raw-field@@';
  return fc
    .tuple(fc.constantFrom(...keys), fc.boolean(), inner)
    .map(([key, underMetadata, text]) =>
      JSON.stringify(underMetadata ? { ...base, metadata: { [key]: marker } } : { ...base, [key]: marker }).replace(
        `"${marker}"`,
        () => text,
      ),
    );
}

/**
 * Nesting around the body depth limit and far beyond it (docs/security.md "JSON nesting depth"): arrays, objects
 * or both, from just under the limit to just past it (wherever the field sits, one of them is at the limit) or
 * 5 000 and 100 000 levels (once a 500 from stack overflows in validation and canonical JSON).
 */
export const deepJsonText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(
      JSON_BODY_MAX_DEPTH - 2,
      JSON_BODY_MAX_DEPTH - 1,
      JSON_BODY_MAX_DEPTH,
      JSON_BODY_MAX_DEPTH + 1,
      5_000,
      5_000,
      100_000,
      100_000,
    ),
    fc.constantFrom('arrays', 'objects', 'mixed'),
  )
  .map(([depth, shape]) => {
    if (shape === 'arrays') return '['.repeat(depth) + ']'.repeat(depth);
    if (shape === 'objects') return '{"a":'.repeat(depth) + 'null' + '}'.repeat(depth);
    const half = Math.floor(depth / 2);
    return '[{"a":'.repeat(half) + '[]' + '}]'.repeat(half);
  });

/** `__proto__` and `constructor.prototype` keys, nested or not: content like any other, never a prototype */
export const protoJsonText: fc.Arbitrary<string> = fc.constantFrom(
  '{"__proto__":{"polluted":true}}',
  '{"a":{"__proto__":{"polluted":true}},"b":1}',
  '{"__proto__":{"__proto__":{"polluted":true}}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '[{"__proto__":null},{"__proto__":[1,2]}]',
  '{"__proto__":"polluted"}',
);

/** a body (from `valid`) with a deep or a `__proto__`-laden value in one of its fields, as raw JSON text */
export function hostileNestingBody(valid: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return valid.chain((body) =>
    withRawField(body, fc.oneof({ arbitrary: deepJsonText, weight: 2 }, { arbitrary: protoJsonText, weight: 1 })),
  );
}

/** whether a request polluted Object.prototype of this process (the apps run in it) */
export const prototypePolluted = () => Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted');
