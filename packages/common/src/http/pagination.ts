import { ApiError } from '../errors';

/** The page parameters (one schema for validation and the OpenAPI document) live in the contracts. */

export function assertCursorsExclusive(q: { starting_after?: string; ending_before?: string }): void {
  if (q.starting_after && q.ending_before) {
    throw new ApiError('parameters_exclusive', {
      param: 'ending_before',
      message: 'starting_after and ending_before cannot be used together.',
    });
  }
}

export interface Cursor {
  created: Date;
  id: string;
}

export interface PageRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

/**
 * Cursor pagination: newest first (created DESC, id DESC); starting_after and ending_before are
 * exclusive; an unknown cursor is 400 (not 404) resource_missing naming it; a cursor is resolved
 * without the list's filters. Runs one page query. `loadCursor` resolves a cursor id to its (created, id); `fetch` returns rows
 * matching `after`/`before` keyset bounds in the given order with `take` rows. The result is always
 * newest first; has_more means more items beyond the page in the walking direction.
 */
export async function paginate<T>(
  page: PageRequest,
  opts: {
    loadCursor: (id: string) => Promise<Cursor | null>;
    fetch: (args: { before?: Cursor; after?: Cursor; order: 'desc' | 'asc'; take: number }) => Promise<T[]>;
  },
): Promise<{ data: T[]; has_more: boolean }> {
  assertCursorsExclusive(page);
  const cursorId = page.starting_after ?? page.ending_before;
  let cursor: Cursor | null = null;
  if (cursorId) {
    cursor = await opts.loadCursor(cursorId);
    if (!cursor) {
      const param = page.starting_after ? 'starting_after' : 'ending_before';
      throw new ApiError('resource_missing', {
        param,
        status: 400,
        type: 'invalid_request_error',
        message: `No such object for ${param}: '${cursorId}'.`,
      });
    }
  }
  if (page.ending_before && cursor) {
    const rows = await opts.fetch({ after: cursor, order: 'asc', take: page.limit + 1 });
    const has_more = rows.length > page.limit;
    return { data: rows.slice(0, page.limit).reverse(), has_more };
  }
  const rows = await opts.fetch({ before: cursor ?? undefined, order: 'desc', take: page.limit + 1 });
  const has_more = rows.length > page.limit;
  return { data: rows.slice(0, page.limit), has_more };
}

/**
 * Prisma `where` fragment for a keyset bound on (created, <idField>): rows strictly older than
 * `before` or strictly newer than `after`.
 */
export function keysetWhere(
  idField: string,
  bound: { before?: Cursor; after?: Cursor },
): Record<string, unknown> | undefined {
  const c = bound.before ?? bound.after;
  if (!c) return undefined;
  const op = bound.before ? 'lt' : 'gt';
  return { OR: [{ created: { [op]: c.created } }, { created: c.created, [idField]: { [op]: c.id } }] };
}

export function keysetOrder(idField: string, order: 'asc' | 'desc'): Array<Record<string, 'asc' | 'desc'>> {
  return [{ created: order }, { [idField]: order }];
}

export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
  next_cursor: string | null;
}

export function listEnvelope<T>(
  url: string,
  page: { data: T[]; has_more: boolean },
  idOf: (item: T) => string,
): ListEnvelope<T> {
  const last = page.data[page.data.length - 1];
  return {
    object: 'list',
    data: page.data,
    has_more: page.has_more,
    url,
    next_cursor: page.has_more && last !== undefined ? idOf(last) : null,
  };
}
