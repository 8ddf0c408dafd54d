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
function zodIssueToApiError(issue: z.core.$ZodIssue, data: unknown, prefix: ReadonlyArray<PropertyKey> = []): ApiError {
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
  // a schema can name the code of its own issue (zQueryText: an empty value counts as missing)
  if (issue.code === 'custom' && issue.params?.apiCode === 'missing_required_param') {
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
    const param = formatParamPath(nulPath.path) || undefined;
    throw new ApiError('parameter_invalid', {
      param,
      message:
        nulPath.found === 'nul'
          ? `Invalid ${param ?? 'request'}: must not contain the NUL character (\\u0000).`
          : `Invalid ${param ?? 'request'}: must not contain an unpaired UTF-16 surrogate (\\ud800-\\udfff).`,
    });
  }
  return result.data;
}

type Unstorable = 'nul' | 'surrogate';

/** Whether `s` holds U+0000 or an unpaired UTF-16 surrogate (a JSON body can carry both as escapes). */
function unstorable(s: string): Unstorable | null {
  if (s.includes('\u0000')) return 'nul';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c > 0xdbff) return 'surrogate';
    const next = s.charCodeAt(i + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return 'surrogate'; // NaN past the end
    i++;
  }
  return null;
}

/**
 * Path of the first string (value or object key) holding U+0000 or an unpaired surrogate, or null.
 * Postgres text and jsonb cannot store NUL, and jsonb refuses a lone surrogate's `\ud800` escape, so
 * every validated input is checked once here instead of in each schema: either anywhere is a 400
 * naming the field, never a 500 from the database (services/worker/test/hostile-corpus.test.ts).
 */
function findNulString(
  value: unknown,
  prefix: ReadonlyArray<PropertyKey> = [],
): { path: PropertyKey[]; found: Unstorable } | null {
  const found: { kind?: Unstorable } = {};
  const reversed = nulPathReversed(value, found);
  return reversed && found.kind ? { path: [...prefix, ...reversed.reverse()], found: found.kind } : null;
}

/** The path is built on the way back up, so the common case (nothing found) allocates nothing per node. */
function nulPathReversed(value: unknown, found: { kind?: Unstorable }): PropertyKey[] | null {
  if (typeof value === 'string') {
    const kind = unstorable(value);
    if (!kind) return null;
    found.kind = kind;
    return [];
  }
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const path = nulPathReversed(value[i], found);
      if (path) return (path.push(i), path);
    }
    return null;
  }
  for (const key in value) {
    const keyKind = unstorable(key);
    if (keyKind) {
      found.kind = keyKind;
      return [key];
    }
    const path = nulPathReversed((value as Record<string, unknown>)[key], found);
    if (path) return (path.push(key), path);
  }
  return null;
}

// The query-string schemas live with the contracts that use them (one definition validates and documents).
