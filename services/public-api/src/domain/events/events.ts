import { ApiError } from '@risk/common/errors';
import { EVENT_RETENTION_DAYS } from '@risk/common/events';
import { listEnvelope, paginate, type ListEnvelope, type PageRequest, keysetSql } from '@risk/common/http';
import type { Event } from '@risk/contracts';
import { Prisma, type PrismaClient } from '@risk/db';

/** Who reads events: an org, through a key of one mode. */
export interface EventReader {
  org_id: string;
  livemode: boolean;
}

/**
 * Events a key may see (the audience rule of @risk/common events.ts), only ever of the key's mode: its
 * org's own (org_id), asset events for assets of that mode it has submitted signals for (asset_orgs),
 * and events addressed to everyone (threat events). Only the last EVENT_RETENTION_DAYS days are served.
 */
function audienceWhere(reader: EventReader): Prisma.Sql {
  return Prisma.sql`e.livemode = ${reader.livemode} AND (
       e.org_id = ${reader.org_id}
    OR (e.org_id IS NULL AND e.fingerprint IS NULL)
    OR (e.org_id IS NULL AND e.fingerprint IS NOT NULL AND EXISTS (
          SELECT 1 FROM asset_orgs ao
           WHERE ao.livemode = e.livemode AND ao.fingerprint = e.fingerprint AND ao.org_id = ${reader.org_id}))
  ) AND e.created >= now() - make_interval(days => ${EVENT_RETENTION_DAYS})`;
}

interface EventRow {
  id: string;
  type: string;
  livemode: boolean;
  data: Prisma.JsonValue;
  created: Date;
}

/** The payload shape shared by GET /v1/events and webhook deliveries. */
export function renderEvent(row: EventRow): Event {
  return {
    id: row.id,
    object: 'event',
    type: row.type as Event['type'],
    created: Math.floor(row.created.getTime() / 1000),
    livemode: row.livemode,
    data: row.data as Event['data'],
  };
}

export async function listEvents(
  prisma: PrismaClient,
  reader: EventReader,
  input: PageRequest & { type?: string },
): Promise<ListEnvelope<Event>> {
  const typeFilter = input.type ? Prisma.sql`AND e.type = ${input.type}` : Prisma.empty;
  const page = await paginate(input, {
    // a cursor resolves without the list's filters, but only to an event the org can see
    loadCursor: async (id) => {
      const rows = await prisma.$queryRaw<Array<{ id: string; created: Date }>>`
        SELECT e.id, e.created FROM events e WHERE e.id = ${id} AND ${audienceWhere(reader)}`;
      return rows[0] ?? null;
    },
    fetch: ({ take, ...bound }) => {
      const keyset = keysetSql('e', bound);
      return prisma.$queryRaw<EventRow[]>`
        SELECT e.id, e.type, e.livemode, e.data, e.created FROM events e
        WHERE ${audienceWhere(reader)} ${typeFilter} ${keyset.and}
        ${keyset.orderBy}
        LIMIT ${take}`;
    },
  });
  return listEnvelope('/v1/events', { data: page.data.map(renderEvent), has_more: page.has_more }, (e) => e.id);
}

export async function getEvent(prisma: PrismaClient, reader: EventReader, id: string): Promise<Event> {
  const rows = await prisma.$queryRaw<EventRow[]>`
    SELECT e.id, e.type, e.livemode, e.data, e.created FROM events e WHERE e.id = ${id} AND ${audienceWhere(reader)}`;
  const row = rows[0];
  if (!row) throw new ApiError('resource_missing', { param: 'event_id', message: `No such event: '${id}'.` });
  return renderEvent(row);
}
