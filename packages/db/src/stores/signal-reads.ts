// One stored signal by id (GET /v1/signals/{id}): read in the month its id names (partitions-store.ts rowByIdSql).
import { Prisma, type PrismaClient, type Signal } from '../generated/prisma/client';
import { rowByIdSql } from './partitions-store';

/** The signal with this id if it is the reader's (org and mode); undefined otherwise, the same as a missing id. */
export async function readSignalFor(
  prisma: Pick<PrismaClient, '$queryRaw'>,
  input: { id: string; orgId: string; livemode: boolean },
): Promise<Signal | undefined> {
  const rows = await prisma.$queryRaw<Signal[]>`
    SELECT s.* FROM (SELECT ${input.id}::text AS id) k CROSS JOIN LATERAL ${Prisma.raw(rowByIdSql('signals', '*', 'k.id'))} s
     WHERE s.org_id = ${input.orgId} AND s.livemode = ${input.livemode}`;
  return rows[0];
}
