import { z } from './zod';

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

export const ZListParams = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional().openapi({ description: 'page size, 1–100, default 20' }),
  starting_after: z
    .string()
    .optional()
    .openapi({ description: 'cursor: the id of the last item of the previous page' }),
  ending_before: z.string().optional().openapi({ description: 'cursor: the id of the first item of the next page' }),
});
