// One stored signal by id (GET /v1/signals/{id}): read in the month its id names (partitions-store.ts idWhere).
import type { PrismaClient, Signal } from '../generated/prisma/client';
import { idWhere, readById } from './partitions-store';

/** The signal with this id if it is the reader's (org and mode); undefined otherwise, the same as a missing id. */
export function readSignalFor(
  prisma: Pick<PrismaClient, '$queryRaw'>,
  input: { id: string; orgId: string; livemode: boolean },
): Promise<Signal | undefined> {
  return readById(
    (bounded) => prisma.$queryRaw<Signal[]>`
      SELECT * FROM signals s
       WHERE ${idWhere('s', input.id, bounded)} AND s.org_id = ${input.orgId} AND s.livemode = ${input.livemode}
       LIMIT 1`,
  );
}
