// Previous / next through an API cursor list (lib/paging.ts).
import { nextCursor, previousCursor, type Cursor, type ListPage, type PageState } from '../lib/paging';

export function Pager<T>(props: {
  page: ListPage<T>;
  state: PageState;
  idOf: (item: T) => string;
  onCursor: (c: Cursor) => void;
}) {
  const { page, state, idOf, onCursor } = props;
  const prev = previousCursor(page, idOf);
  const next = nextCursor(page, idOf);
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={!state.hasPrevious || !prev} onClick={() => prev && onCursor(prev)}>
        ← Newer
      </button>
      <button type="button" disabled={!state.hasNext || !next} onClick={() => next && onCursor(next)}>
        Older →
      </button>
    </nav>
  );
}
