// Query-string schemas for values parsed by @risk/common's parseQueryString (a string for one value, an
// array for several or for a key written with `[]`). They validate and document in one: the OpenAPI
// document shows what a client sends (strings), the service gets the parsed values.
import { z } from './zod';

/** A repeatable query parameter: always an array. */
export const zQueryList = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(item));

/** A single-valued query parameter: repeated values are an error. */
export const zQueryOne = <T extends z.ZodType>(inner: T) =>
  z.preprocess(
    (v) => v,
    inner.refine((v) => !Array.isArray(v), 'must be given once'),
  );

export const zQueryInt = (min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v),
    z
      .int(`must be an integer between ${min} and ${max}`)
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}`),
  );

/** `true` or `false` in the query string (documented as the two strings a client sends). */
export const zQueryBool = z
  .preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean('must be true or false'))
  .openapi({ type: 'string', enum: ['true', 'false'] });

/**
 * A required single-valued text parameter: absent or empty is 400 missing_required_param, repeated is
 * 400 parameter_invalid (parseOrThrow reads the `apiCode` a custom issue names).
 */
export const zQueryText = z
  .unknown()
  .transform((v, ctx) => {
    if (v === undefined || v === '') {
      ctx.addIssue({ code: 'custom', message: 'is required', params: { apiCode: 'missing_required_param' } });
      return z.NEVER;
    }
    if (typeof v !== 'string') {
      ctx.addIssue({ code: 'custom', message: 'must be given once' });
      return z.NEVER;
    }
    return v;
  })
  .openapi({ type: 'string' });

const QUERY_NAMES = new WeakMap<z.ZodType, string>();

/**
 * A query parameter the document names differently from its parsed key: clients send `expand[]=…`,
 * which parseQueryString hands over as `expand`.
 */
export function documentedAs<T extends z.ZodType>(schema: T, name: string): T {
  QUERY_NAMES.set(schema, name);
  return schema;
}

/** The query object as the document names its parameters (see documentedAs). */
export function documentedQuery(query: z.ZodType): z.ZodType {
  if (!(query instanceof z.ZodObject)) return query;
  const shape = query.shape as Record<string, z.ZodType>;
  if (!Object.values(shape).some((field) => QUERY_NAMES.has(field))) return query;
  return z.object(
    Object.fromEntries(Object.entries(shape).map(([key, field]) => [QUERY_NAMES.get(field) ?? key, field])),
  );
}

/**
 * `expand[]`: a list of names the route checks itself (list routes also take Stripe's `data.<field>`),
 * documented with the names it supports.
 */
export const zExpandParam = (values: readonly [string, ...string[]]) =>
  documentedAs(
    zQueryList(z.string())
      .optional()
      .openapi({
        description: `repeat as expand[]=…; one of ${values.join(', ')}`,
        items: { type: 'string', enum: [...values] },
      }),
    'expand[]',
  );
