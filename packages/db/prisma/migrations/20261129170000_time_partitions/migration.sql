-- Monthly range partitions of signals and events on created (docs/scaling.md "Monthly partitions for signals and
-- events"). In one transaction (the runner's): each table is renamed aside, a partitioned table of the same columns is
-- created under its name with a DEFAULT partition and one partition per month from its oldest row to three months
-- ahead, the rows are moved, the old table dropped. Row ids and every column stay as they were.

-- The creation time an id carries (src/ids.ts: after the prefix, 10 Crockford base32 characters of epoch
-- milliseconds), shifted by shift_ms. Look-ups by id bound created around it so the planner reads one partition. An id
-- of another shape decodes to some time (always within timestamptz's range): the bounded read then finds nothing and
-- the look-up's unbounded read runs (partitions-store.ts). Immutable throughout (the shift is added before
-- to_timestamp: timestamptz ± interval is only stable), so with a constant id the planner prunes while planning; one
-- SELECT without FROM and not STRICT, so the planner inlines it (about 3 µs a call, against 35 µs as a function call).
CREATE FUNCTION risk_id_time(id text, shift_ms bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_timestamp((
        (strpos('0123456789abcdefghjkmnpqrstvwxyz', substr(id, strpos(id, '_') + 1, 1)) - 1)::bigint * 35184372088832
      + (strpos('0123456789abcdefghjkmnpqrstvwxyz', substr(id, strpos(id, '_') + 2, 1)) - 1)::bigint * 1099511627776
      + (strpos('0123456789abcdefghjkmnpqrstvwxyz', substr(id, strpos(id, '_') + 3, 1)) - 1)::bigint * 34359738368
      + (strpos('0123456789abcdefghjkmnpqrstvwxyz', substr(id, strpos(id, '_') + 4, 1)) - 1)::bigint * 1073741824
      + (strpos('0123456789abcdefghjkmnpqrstvwxyz', substr(id, strpos(id, '_') + 5, 1)) - 1)::bigint * 33554432
      + (strpos('0123456789abcdefghjkmnpqrstvwxyz', substr(id, strpos(id, '_') + 6, 1)) - 1)::bigint * 1048576
      + (strpos('0123456789abcdefghjkmnpqrstvwxyz', substr(id, strpos(id, '_') + 7, 1)) - 1)::bigint * 32768
      + (strpos('0123456789abcdefghjkmnpqrstvwxyz', substr(id, strpos(id, '_') + 8, 1)) - 1)::bigint * 1024
      + (strpos('0123456789abcdefghjkmnpqrstvwxyz', substr(id, strpos(id, '_') + 9, 1)) - 1)::bigint * 32
      + (strpos('0123456789abcdefghjkmnpqrstvwxyz', substr(id, strpos(id, '_') + 10, 1)) - 1)::bigint * 1
      + shift_ms) / 1000.0)
$$;

-- Creates the partition of `parent` for the month holding `month` (UTC) unless it exists, moving into it the rows of
-- that month the DEFAULT partition holds (ATTACH refuses while the default has any). The partition is made apart and
-- attached: ATTACH takes SHARE UPDATE EXCLUSIVE on the parent, so reads and inserts go on. Returns whether it created
-- one. Used by this migration and by the worker's maintenance (partitions-store.ts).
CREATE FUNCTION risk_ensure_month_partition(parent text, month timestamptz) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  lo timestamptz := date_trunc('month', month AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  hi timestamptz := (date_trunc('month', month AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
  part text := parent || '_' || to_char(month AT TIME ZONE 'UTC', '"y"YYYY"m"MM');
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('risk_month_partition:' || parent));
  IF to_regclass(quote_ident(part)) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part, parent);
  EXECUTE format('INSERT INTO %I SELECT * FROM %I WHERE created >= $1 AND created < $2', part, parent || '_default')
    USING lo, hi;
  EXECUTE format('DELETE FROM %I WHERE created >= $1 AND created < $2', parent || '_default') USING lo, hi;
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, part, lo, hi);
  RETURN true;
END
$$;

-- ── signals ──
ALTER TABLE "signals" RENAME TO "signals_unpartitioned";
ALTER TABLE "signals_unpartitioned" RENAME CONSTRAINT "signals_pkey" TO "signals_unpartitioned_pkey";
ALTER INDEX "signals_org_id_created_id_idx" RENAME TO "signals_unpartitioned_org_idx";
ALTER INDEX "signals_fingerprint_created_idx" RENAME TO "signals_unpartitioned_fingerprint_idx";

CREATE TABLE "signals" (LIKE "signals_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("created");
-- the partition key must be in every unique constraint of a partitioned table
ALTER TABLE "signals" ADD CONSTRAINT "signals_pkey" PRIMARY KEY ("id", "created");
CREATE INDEX "signals_org_id_created_id_idx" ON "signals"("org_id", "created" DESC, "id" DESC);
CREATE INDEX "signals_fingerprint_created_idx" ON "signals"("fingerprint", "created" DESC);
-- a safety net: rows of a month maintenance has not created yet land here and are moved out when it does
CREATE TABLE "signals_default" PARTITION OF "signals" DEFAULT;

SELECT risk_ensure_month_partition('signals', m)
  FROM generate_series(
         date_trunc('month', LEAST((SELECT min("created") FROM "signals_unpartitioned"), now()) AT TIME ZONE 'UTC'),
         date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months',
         interval '1 month') AS g(m_utc),
       LATERAL (SELECT m_utc AT TIME ZONE 'UTC' AS m) x;

INSERT INTO "signals" SELECT * FROM "signals_unpartitioned";
DROP TABLE "signals_unpartitioned";

-- ── events ──
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_id_fkey";
ALTER TABLE "events" RENAME TO "events_unpartitioned";
ALTER TABLE "events_unpartitioned" RENAME CONSTRAINT "events_pkey" TO "events_unpartitioned_pkey";
ALTER INDEX "events_created_id_idx" RENAME TO "events_unpartitioned_created_idx";
ALTER INDEX "events_type_created_idx" RENAME TO "events_unpartitioned_type_idx";
ALTER INDEX "events_org_id_created_idx" RENAME TO "events_unpartitioned_org_idx";
ALTER INDEX "events_fingerprint_idx" RENAME TO "events_unpartitioned_fingerprint_idx";

CREATE TABLE "events" (LIKE "events_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("created");
ALTER TABLE "events" ADD CONSTRAINT "events_pkey" PRIMARY KEY ("id", "created");
CREATE INDEX "events_created_id_idx" ON "events"("created" DESC, "id" DESC);
CREATE INDEX "events_type_created_idx" ON "events"("type", "created" DESC);
CREATE INDEX "events_org_id_created_idx" ON "events"("org_id", "created" DESC);
CREATE INDEX "events_fingerprint_idx" ON "events"("fingerprint");
CREATE TABLE "events_default" PARTITION OF "events" DEFAULT;

SELECT risk_ensure_month_partition('events', m)
  FROM generate_series(
         date_trunc('month', LEAST((SELECT min("created") FROM "events_unpartitioned"), now()) AT TIME ZONE 'UTC'),
         date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months',
         interval '1 month') AS g(m_utc),
       LATERAL (SELECT m_utc AT TIME ZONE 'UTC' AS m) x;

INSERT INTO "events" SELECT * FROM "events_unpartitioned";

-- A delivery carries its event's key and type: no foreign key can reach a partitioned table without the partition
-- key, and one would make every partition drop scan the deliveries under the parent's lock. Retention removes the
-- deliveries of the months it drops (partitions-store.ts).
ALTER TABLE "webhook_deliveries" ADD COLUMN "event_created" TIMESTAMPTZ(3), ADD COLUMN "event_type" TEXT;
UPDATE "webhook_deliveries" d SET "event_created" = e."created", "event_type" = e."type"
  FROM "events_unpartitioned" e WHERE e."id" = d."event_id";
DELETE FROM "webhook_deliveries" WHERE "event_created" IS NULL;
ALTER TABLE "webhook_deliveries" ALTER COLUMN "event_created" SET NOT NULL, ALTER COLUMN "event_type" SET NOT NULL;
CREATE INDEX "webhook_deliveries_event_created_idx" ON "webhook_deliveries"("event_created");

DROP TABLE "events_unpartitioned";
