// Auto-pagination over the list envelope `{object: "list", data, has_more, next_cursor, url}` (DESIGN §3):
// forward pages follow starting_after = the last item's cursor; backward pages follow ending_before = the first
// item's cursor, and each backward page (newest first, like every page) is yielded in reverse so the iteration
// walks steadily towards newer items.

type ListBody<T> = { object: 'list'; data: T[]; has_more: boolean; next_cursor: string | null };

type OkJson<Op> = Op extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never;

/** The GET routes of `Paths` that answer with a list envelope. */
export type ListPath<Paths> = {
  [P in keyof Paths]: Paths[P] extends { get: infer Op } ? (OkJson<Op> extends ListBody<unknown> ? P : never) : never;
}[keyof Paths];

/** The item type of a list route. */
export type ListItem<Paths, P extends keyof Paths> = Paths[P] extends { get: infer Op }
  ? OkJson<Op> extends ListBody<infer Item>
    ? Item
    : never
  : never;

type Init = { params?: { query?: Record<string, unknown>; [key: string]: unknown }; [key: string]: unknown };

/** Items are cursored by `id`, assets by `fingerprint` (DESIGN §3). */
function cursorOf(item: unknown): string {
  const { id, fingerprint } = (item ?? {}) as { id?: unknown; fingerprint?: unknown };
  if (typeof id === 'string') return id;
  if (typeof fingerprint === 'string') return fingerprint;
  throw new Error('list item has neither id nor fingerprint to page from');
}

export async function* paginate<Item>(
  get: (path: string, init: Init) => Promise<unknown>,
  path: string,
  init: Init = {},
): AsyncIterableIterator<Item> {
  const query: Record<string, unknown> = { ...init.params?.query };
  const backward = query.ending_before !== undefined && query.ending_before !== null;
  while (true) {
    const page = (await get(path, { ...init, params: { ...init.params, query } })) as ListBody<Item>;
    const items = backward ? [...page.data].reverse() : page.data;
    yield* items;
    const edge = backward ? page.data[0] : page.data[page.data.length - 1];
    if (!page.has_more || edge === undefined) return;
    if (backward) query.ending_before = cursorOf(edge);
    else query.starting_after = page.next_cursor ?? cursorOf(edge);
  }
}
