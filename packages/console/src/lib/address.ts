// A list's place in the address (docs/console.md "Pages"): its filters and its cursor are query parameters, so
// every page of a filtered list is a deep link.
import type { Cursor } from './paging';

const CURSOR_KEYS = ['starting_after', 'ending_before'] as const;

/** The cursor in the address, if any (one of starting_after / ending_before). */
export function cursorFrom(search: URLSearchParams): Cursor {
  const after = search.get('starting_after');
  if (after) return { starting_after: after };
  const before = search.get('ending_before');
  if (before) return { ending_before: before };
  return {};
}

/** `path?query` with `changes` applied (empty values removed); a filter change drops the cursor. */
export function withParams(path: string, search: URLSearchParams, changes: Record<string, string | null>): string {
  const next = new URLSearchParams(search);
  for (const k of CURSOR_KEYS) next.delete(k); // a new cursor replaces the old one; a new filter starts over
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === '') next.delete(k);
    else next.set(k, v);
  }
  const q = next.toString();
  return q ? `${path}?${q}` : path;
}
