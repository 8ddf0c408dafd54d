// Cursor paging over the APIs' lists (docs/public-api.md "Pagination"): newest first, `starting_after` the last
// id of a page for the next one, `ending_before` the first id for the previous one.
export interface ListPage<T> {
  data: T[];
  has_more: boolean;
}

export type Cursor = { starting_after: string } | { ending_before: string } | Record<string, never>;

export interface PageState {
  /** the cursor that fetched the current page */
  cursor: Cursor;
  /** true when an older page exists */
  hasNext: boolean;
  /** true when a newer page exists */
  hasPrevious: boolean;
}

/** What the pager can offer after a page arrived, given the cursor that fetched it. */
export function pageState<T>(cursor: Cursor, page: ListPage<T>): PageState {
  if ('ending_before' in cursor) return { cursor, hasNext: page.data.length > 0, hasPrevious: page.has_more };
  return { cursor, hasNext: page.has_more, hasPrevious: 'starting_after' in cursor };
}

export function nextCursor<T>(page: ListPage<T>, idOf: (item: T) => string): Cursor | null {
  const last = page.data[page.data.length - 1];
  return last ? { starting_after: idOf(last) } : null;
}

export function previousCursor<T>(page: ListPage<T>, idOf: (item: T) => string): Cursor | null {
  const first = page.data[0];
  return first ? { ending_before: idOf(first) } : null;
}
