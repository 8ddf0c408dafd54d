import type { PoolClient } from 'pg';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { keysetSql, type KeysetPage } from './keyset-sql';
import { idWhere, readById, rowByIdSql } from './partitions-store';
// The events tables' shared statement (docs/data-access.md "Stores"): the fan-out of events to webhook deliveries.
/**
 * One statement: every enabled endpoint in an event's audience whose `events` list holds the event's
 * type (or '*') gets a webhook_deliveries row and an outbox row. Delivery ids are generated in SQL in
 * the same shape as newId() (`whd_` + 10 base32 chars of epoch ms + 16 random chars), so they stay
 * time-sortable. ON CONFLICT makes a second fan-out of the same event a no-op. $1 = text[] of event ids.
 *
 * The events are read by one primary-key probe per id, in the partition the id's time names (rowByIdSql; the LIMIT
 * keeps each a nested-loop index probe). As
 * `id = ANY($1)` the statement is prepared (ri_fanout, ew_fanout), and its generic plan, made while the
 * events table was small, scanned every event for every fan-out: 136 ms per 500-signal projection at 10k
 * events, growing with the table (docs/performance.md "The fan-out's cached plan").
 */
export const FAN_OUT_EVENTS_SQL = `
    WITH ev AS (
      SELECT e.*
      FROM (SELECT DISTINCT unnest($1::text[]) AS id) k
      CROSS JOIN LATERAL ${rowByIdSql('events', 'id, type, livemode, org_id, fingerprint, created', 'k.id')} e
    ),
    targets AS (
      SELECT ev.id AS event_id, ev.created AS event_created, ev.type AS event_type, we.id AS endpoint_id
      FROM ev
      JOIN webhook_endpoints we
        ON we.status = 'enabled'
       AND we.livemode = ev.livemode
       AND (ev.type = ANY(we.events) OR '*' = ANY(we.events))
       AND (
            (ev.org_id IS NOT NULL AND we.org_id = ev.org_id)
         OR (ev.org_id IS NULL AND ev.fingerprint IS NOT NULL AND EXISTS (
               SELECT 1 FROM asset_orgs ao
                WHERE ao.livemode = ev.livemode AND ao.fingerprint = ev.fingerprint AND ao.org_id = we.org_id))
         OR (ev.org_id IS NULL AND ev.fingerprint IS NULL)
       )
    ),
    clock AS (
      SELECT (
        SELECT string_agg(substr('0123456789abcdefghjkmnpqrstvwxyz', ((ms >> (5 * (9 - i))) & 31)::int + 1, 1), '' ORDER BY i)
        FROM generate_series(0, 9) AS i
      ) AS time_part
      FROM (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms) m
    ),
    inserted AS (
      INSERT INTO webhook_deliveries (id, event_id, event_created, event_type, endpoint_id, status, attempt_count, created,
                                      updated)
      SELECT 'whd_' || clock.time_part || substr(replace(gen_random_uuid()::text, '-', ''), 1, 16),
             t.event_id, t.event_created, t.event_type, t.endpoint_id, 'pending', 0, now(), now()
      FROM targets t CROSS JOIN clock
      ON CONFLICT (event_id, endpoint_id) DO NOTHING
      RETURNING id
    ),
    queued AS (
      INSERT INTO outbox (kind, payload)
      SELECT 'webhook_delivery', jsonb_build_object('delivery_id', inserted.id) FROM inserted
      RETURNING id, payload->>'delivery_id' AS delivery_id
    )
    SELECT delivery_id, id AS outbox_id FROM queued ORDER BY delivery_id`;

/** A webhook delivery the fan-out created, with its outbox row (enqueue it after commit). */
export interface FannedOutDelivery {
  delivery_id: string;
  outbox_id: bigint;
}

/** Fan-out of events (FAN_OUT_EVENTS_SQL) inside a Prisma transaction. */
export async function fanOutEvents(
  tx: Pick<PrismaClient, '$queryRawUnsafe'>,
  eventIds: string[],
): Promise<FannedOutDelivery[]> {
  if (eventIds.length === 0) return [];
  const rows = await tx.$queryRawUnsafe<Array<{ delivery_id: string; outbox_id: bigint }>>(
    FAN_OUT_EVENTS_SQL,
    eventIds,
  );
  return rows.map((r) => ({ delivery_id: r.delivery_id, outbox_id: BigInt(r.outbox_id) }));
}

/** The same fan-out on a pg client inside its transaction (after the events' INSERT, before COMMIT). */
export async function fanOutEventsPg(
  client: Pick<PoolClient, 'query'>,
  eventIds: string[],
): Promise<FannedOutDelivery[]> {
  if (eventIds.length === 0) return [];
  const { rows } = await client.query<{ delivery_id: string; outbox_id: string }>(FAN_OUT_EVENTS_SQL, [eventIds]);
  return rows.map((r) => ({ delivery_id: r.delivery_id, outbox_id: BigInt(r.outbox_id) }));
}

/** Who reads events: an org, through a key of one mode. */
export interface EventReader {
  org_id: string;
  livemode: boolean;
}

/** An event as GET /v1/events and webhook deliveries render it. */
export interface EventRow {
  id: string;
  type: string;
  livemode: boolean;
  data: Prisma.JsonValue;
  created: Date;
}

/**
 * Events a key may see (the audience of FAN_OUT_EVENTS_SQL), only ever of the key's mode: its org's own (org_id),
 * asset events for assets of that mode it has submitted signals for (asset_orgs), and events addressed to everyone
 * (threat events); only those of the last `retentionDays` days.
 */
function audienceWhere(reader: EventReader, retentionDays: number): Prisma.Sql {
  return Prisma.sql`e.livemode = ${reader.livemode} AND (
       e.org_id = ${reader.org_id}
    OR (e.org_id IS NULL AND e.fingerprint IS NULL)
    OR (e.org_id IS NULL AND e.fingerprint IS NOT NULL AND EXISTS (
          SELECT 1 FROM asset_orgs ao
           WHERE ao.livemode = e.livemode AND ao.fingerprint = e.fingerprint AND ao.org_id = ${reader.org_id}))
  ) AND e.created >= now() - make_interval(days => ${retentionDays})`;
}

/** One event the reader may see, or undefined: read in the month its id names (partitions-store.ts idWhere). */
export function readEventFor(
  prisma: Pick<PrismaClient, '$queryRaw'>,
  input: { reader: EventReader; id: string; retentionDays: number },
): Promise<EventRow | undefined> {
  return readById(
    (bounded) => prisma.$queryRaw<EventRow[]>`
      SELECT e.id, e.type, e.livemode, e.data, e.created FROM events e
       WHERE ${idWhere('e', input.id, bounded)} AND ${audienceWhere(input.reader, input.retentionDays)}
       LIMIT 1`,
  );
}

/** One keyset page of the events the reader may see, optionally of one type. */
export async function listEventsFor(
  prisma: Pick<PrismaClient, '$queryRaw'>,
  input: { reader: EventReader; retentionDays: number; type?: string; page: KeysetPage; take: number },
): Promise<EventRow[]> {
  const typeFilter = input.type ? Prisma.sql`AND e.type = ${input.type}` : Prisma.empty;
  const keyset = keysetSql('e', input.page);
  return prisma.$queryRaw<EventRow[]>`
    SELECT e.id, e.type, e.livemode, e.data, e.created FROM events e
    WHERE ${audienceWhere(input.reader, input.retentionDays)} ${typeFilter} ${keyset.and}
    ${keyset.orderBy}
    LIMIT ${input.take}`;
}
