// A cursor-paged list whose filters and cursor live in the address (docs/console.md "Pages"): a page of a
// filtered list is a deep link (/threats?severity=high&starting_after=thr_…), Back returns to the previous page,
// and changing a filter starts again from the newest item.
import { useState } from 'react';
import { useAsync, type AsyncState } from './use-async';
import { useRouter } from './router';
import { cursorFrom, withParams } from '../lib/address';
import { pageState, type Cursor, type ListPage, type PageState } from '../lib/paging';

/** What a paged table needs: the loaded page, where it sits, and a way to move the cursor. */
export interface PagedSource<T> {
  state: AsyncState<ListPage<T>> & { reload: () => void };
  setCursor: (cursor: Cursor) => void;
  pageState: PageState | null;
}

export interface PagedList<T> extends PagedSource<T> {
  /** filter values from the address */
  filters: URLSearchParams;
  setFilter: (name: string, value: string | null) => void;
}

/** Loads the page the address names; `load` gets the cursor and the address's parameters. */
export function usePagedList<T>(
  load: (cursor: Cursor, filters: URLSearchParams) => Promise<ListPage<T>>,
): PagedList<T> {
  const { location, navigate } = useRouter();
  const { path, search } = location;
  const cursor = cursorFrom(search);
  const state = useAsync(() => load(cursor, search), `${path}?${search.toString()}`);
  return {
    state,
    filters: search,
    setFilter: (name, value) => navigate(withParams(path, search, { [name]: value })),
    setCursor: (c) => navigate(withParams(path, search, { ...c })),
    pageState: state.status === 'ready' ? pageState(cursor, state.data) : null,
  };
}

/**
 * A cursor-paged list whose cursor lives in component state, for a section of a page that shows more than one list
 * (a tenant's tokens): the address keeps naming the page. `key` names what `load` depends on besides the cursor.
 */
export function useLocalPagedList<T>(load: (cursor: Cursor) => Promise<ListPage<T>>, key: string): PagedSource<T> {
  const [cursor, setCursor] = useState<Cursor>({});
  const state = useAsync(() => load(cursor), `${key}:${JSON.stringify(cursor)}`);
  return { state, setCursor, pageState: state.status === 'ready' ? pageState(cursor, state.data) : null };
}
