import { zQueryInt } from './query';
import { z } from './zod';

// no control characters: fingerprints and ids travel in URLs and logs (and Postgres text cannot hold NUL)
export const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

export const ZErrorEnvelope = z
  .object({
    error: z.object({
      type: z.enum([
        'invalid_request_error',
        'authentication_error',
        'permission_error',
        'not_found_error',
        'conflict_error',
        'rate_limit_error',
        'api_error',
      ]),
      code: z.string(),
      param: z.string().optional(),
      message: z.string(),
      request_id: z.string(),
    }),
  })
  .openapi('ErrorEnvelope');

/** The spec's list envelope around items of `item`. */
export function zList<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      object: z.literal('list'),
      data: z.array(item),
      has_more: z.boolean(),
      url: z.string(),
      next_cursor: z.string().nullable(),
    })
    .openapi(name);
}

/** A cursor is an object id or a fingerprint: never a control character (ids travel in URLs and logs). */
const zCursor = z.string().min(1).max(512).regex(NO_CONTROL, 'must not contain control characters');

/**
 * The page parameters of every list: limit 1..100, default 20; starting_after and ending_before are
 * exclusive cursors (@risk/common's paginate). Routes validate with it and the OpenAPI document shows
 * it; list routes add their filters with `.extend`.
 */
export const ZListQuery = z.object({
  limit: zQueryInt(1, 100).default(20).openapi({ description: 'page size, 1–100, default 20' }),
  starting_after: zCursor.optional().openapi({ description: 'cursor: the id of the last item of the previous page' }),
  ending_before: zCursor.optional().openapi({ description: 'cursor: the id of the first item of the next page' }),
});
export type ListQuery = z.infer<typeof ZListQuery>;
