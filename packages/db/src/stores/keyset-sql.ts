// The keyset page of docs/public-api.md "Pagination" for raw SQL (private to the stores: the services page with
// Prisma's where/orderBy, @risk/common http/pagination.ts).
import { Prisma } from '../generated/prisma/client';

/** A page's bound and order, as @risk/common's paginate hands it to a fetch. */
export interface KeysetPage {
  before?: { created: Date; id: string };
  after?: { created: Date; id: string };
  order: 'asc' | 'desc';
}

/**
 * The keyset over table alias `alias` (a constant of the store, never input): `and` is the bound
 * (`AND (a.created, a.id) < (…)`, or nothing) and `orderBy` the matching order.
 */
export function keysetSql(alias: string, page: KeysetPage): { and: Prisma.Sql; orderBy: Prisma.Sql } {
  const a = Prisma.raw(alias);
  const bound = page.before ?? page.after;
  const op = page.before ? Prisma.raw('<') : Prisma.raw('>');
  const dir = Prisma.raw(page.order === 'asc' ? 'ASC' : 'DESC');
  return {
    and: bound
      ? Prisma.sql`AND (${a}.created, ${a}.id) ${op} (${bound.created}::timestamptz, ${bound.id})`
      : Prisma.empty,
    orderBy: Prisma.sql`ORDER BY ${a}.created ${dir}, ${a}.id ${dir}`,
  };
}
