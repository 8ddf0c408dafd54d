// The events tables' shared statement (docs/data-access.md "Stores"): the fan-out of events to webhook deliveries.
/**
 * One statement: every enabled endpoint in an event's audience whose `events` list holds the event's
 * type (or '*') gets a webhook_deliveries row and an outbox row. Delivery ids are generated in SQL in
 * the same shape as newId() (`whd_` + 10 base32 chars of epoch ms + 16 random chars), so they stay
 * time-sortable. ON CONFLICT makes a second fan-out of the same event a no-op. $1 = text[] of event ids.
 *
 * The events are read by one primary-key probe per id (the LIMIT keeps each a nested-loop index probe). As
 * `id = ANY($1)` the statement is prepared (ri_fanout, ew_fanout), and its generic plan, made while the
 * events table was small, scanned every event for every fan-out: 136 ms per 500-signal projection at 10k
 * events, growing with the table (docs/performance.md "The fan-out's cached plan").
 */
export const FAN_OUT_EVENTS_SQL = `
    WITH ev AS (
      SELECT e.*
      FROM (SELECT DISTINCT unnest($1::text[]) AS id) k
      CROSS JOIN LATERAL (
        SELECT id, type, livemode, org_id, fingerprint FROM events WHERE events.id = k.id LIMIT 1
      ) e
    ),
    targets AS (
      SELECT ev.id AS event_id, we.id AS endpoint_id
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
      INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, attempt_count, created, updated)
      SELECT 'whd_' || clock.time_part || substr(replace(gen_random_uuid()::text, '-', ''), 1, 16),
             t.event_id, t.endpoint_id, 'pending', 0, now(), now()
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
