import { z } from 'zod';
import { ApiError } from '../errors';

/** `['signals', 3, 'observed_at']` → `signals[3].observed_at` (the param format of error envelopes) */
export function formatParamPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

function valueAt(data: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let cur: unknown = data;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}

/** Turns the first zod issue into the envelope's code/param/message. */
function zodIssueToApiError(
  issue: z.core.$ZodIssue,
  data: unknown,
  prefix: ReadonlyArray<PropertyKey> = [],
): ApiError {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'unrecognized_keys') {
    const param = formatParamPath([...path, issue.keys[0]!]);
    return new ApiError('parameter_unknown', { param, message: `Received unknown parameter: ${param}.` });
  }
  const param = formatParamPath(path) || undefined;
  const value = valueAt(data, issue.path);
  // an absent field is "missing" whatever the schema would have checked next (enum, union, refine…)
  const parent = valueAt(data, issue.path.slice(0, -1));
  const absent =
    issue.path.length > 0 &&
    parent !== null &&
    typeof parent === 'object' &&
    !Array.isArray(parent) &&
    !Object.prototype.hasOwnProperty.call(parent, issue.path[issue.path.length - 1]!);
  if (absent || (value === undefined && issue.code === 'invalid_type')) {
    return new ApiError('missing_required_param', { param, message: `Missing required param: ${param}.` });
  }
  if (issue.code === 'invalid_type' && issue.expected === 'int') {
    return new ApiError('parameter_invalid_integer', {
      param,
      message: `Invalid integer for ${param}: ${issue.message}.`,
    });
  }
  return new ApiError('parameter_invalid', { param, message: `Invalid ${param ?? 'request'}: ${issue.message}.` });
}

/** Validates `data` with `schema` or throws the ApiError for its first problem. */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  data: unknown,
  prefix: ReadonlyArray<PropertyKey> = [],
): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) {
    // report the earliest problem in document order so messages are stable
    throw zodIssueToApiError(result.error.issues[0]!, data, prefix);
  }
  // walk the parsed value: its shape is the schema's, so the path reads like zod's own (`lookup_name[0]`)
  const nulPath = findNulString(result.data, prefix);
  if (nulPath) {
    const param = formatParamPath(nulPath) || undefined;
    throw new ApiError('parameter_invalid', {
      param,
      message: `Invalid ${param ?? 'request'}: must not contain the NUL character (\\u0000).`,
    });
  }
  return result.data;
}

/**
 * Path of the first string (value or object key) holding U+0000, or null. Postgres text and jsonb
 * cannot store NUL, so every validated input is checked once here instead of in each schema: a NUL
 * anywhere is a 400 naming the field, never a 500 from the database.
 */
function findNulString(value: unknown, prefix: ReadonlyArray<PropertyKey> = []): PropertyKey[] | null {
  const reversed = nulPathReversed(value);
  return reversed ? [...prefix, ...reversed.reverse()] : null;
}

/** The path is built on the way back up, so the common case (no NUL) allocates nothing per node. */
function nulPathReversed(value: unknown): PropertyKey[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? [] : null;
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPathReversed(value[i]);
      if (found) return (found.push(i), found);
    }
    return null;
  }
  for (const key in value) {
    if (key.includes('\u0000')) return [key];
    const found = nulPathReversed((value as Record<string, unknown>)[key]);
    if (found) return (found.push(key), found);
  }
  return null;
}

// ── helpers for query strings parsed by parseQueryString ──

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

export const zQueryBool = z.preprocess(
  (v) => (v === 'true' ? true : v === 'false' ? false : v),
  z.boolean('must be true or false'),
);
