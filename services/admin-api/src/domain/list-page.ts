// The one keyset page of every admin list route (docs/admin-api.md "Decisions", Lists): newest first by (created, id),
// `limit`, `starting_after` and `ending_before` as in the public API (`paginate` in @risk/common), the
// cursor looked up within the list's scope (another tenant's id is an unknown cursor, 400), and the envelope.
import { keysetOrder, keysetWhere, listEnvelope, paginate, type Cursor, type ListEnvelope } from '@risk/common/http';
import { type ListQuery } from '@risk/contracts';

/** What a Prisma model delegate offers a keyset page (method syntax: Prisma's generic methods fit it). */
export interface KeysetModel<Row> {
  findFirst(args: { where: object; select: { id: true; created: true } }): Promise<Cursor | null>;
  findMany(args: { where: object; orderBy: object[]; take: number }): Promise<Row[]>;
}

export async function listPage<Row, Item extends { id: string }>(
  model: KeysetModel<Row>,
  input: {
    page: ListQuery;
    /** the list's filter, also applied to the cursor look-up (`{ tenant_id }` for a tenant's list) */
    scope: Record<string, unknown>;
    url: string;
    serialize: (row: Row) => Item;
  },
): Promise<ListEnvelope<Item>> {
  const { scope } = input;
  const result = await paginate(input.page, {
    loadCursor: (id) => model.findFirst({ where: { id, ...scope }, select: { id: true, created: true } }),
    fetch: ({ before, after, order, take }) =>
      model.findMany({
        where: { ...scope, ...keysetWhere('id', { before, after }) },
        orderBy: keysetOrder('id', order),
        take,
      }),
  });
  return listEnvelope(
    input.url,
    { data: result.data.map(input.serialize), has_more: result.has_more },
    (item) => item.id,
  );
}
