import { ApiError } from '@risk/common/errors';
import { EVENT_RETENTION_DAYS } from '@risk/common/events';
import { listEnvelope, paginate, type ListEnvelope, type PageRequest } from '@risk/common/http';
import type { Event } from '@risk/contracts';
import { listEventsFor, readEventFor, type EventReader, type EventRow, type PrismaClient } from '@risk/db';

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
  const retentionDays = EVENT_RETENTION_DAYS;
  const page = await paginate(input, {
    // a cursor resolves without the list's filters, but only to an event the org can see
    loadCursor: async (id) => (await readEventFor(prisma, { reader, id, retentionDays })) ?? null,
    fetch: ({ take, ...bound }) => listEventsFor(prisma, { reader, retentionDays, type: input.type, page: bound, take }),
  });
  return listEnvelope('/v1/events', { data: page.data.map(renderEvent), has_more: page.has_more }, (e) => e.id);
}

export async function getEvent(prisma: PrismaClient, reader: EventReader, id: string): Promise<Event> {
  const row = await readEventFor(prisma, { reader, id, retentionDays: EVENT_RETENTION_DAYS });
  if (!row) throw new ApiError('resource_missing', { param: 'event_id', message: `No such event: '${id}'.` });
  return renderEvent(row);
}
