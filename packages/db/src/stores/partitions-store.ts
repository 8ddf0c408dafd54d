// The monthly partitions of signals and events (docs/scaling.md "Monthly partitions for signals and events"): the
// look-up of one row by id, and the maintenance steps that create months ahead and drop months past retention.
import type { Pool, PoolClient } from 'pg';
import { Prisma } from '../generated/prisma/client';

/** The range-partitioned tables: their rows' ids carry their creation time (src/ids.ts). */
export const PARTITIONED_TABLES = ['signals', 'events'] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

/** How far created may be from the time its id carries for the bounded read: an hour either side. */
const ID_TIME_SLACK_MS = 3_600_000;

/**
 * One row of `table` by id, as a subquery for FROM or LATERAL (`idExpr` is SQL: a parameter or an outer column). The
 * primary key is (id, created), so an id alone would probe every month's index. The first branch bounds created to
 * ID_TIME_SLACK_MS either side of the time the id carries (`risk_id_time`, migration 20261129170000_time_partitions): ids are
 * minted by the clock that stamps created or in the same transaction as the database's `now()`, so this is the
 * partition holding the row, or two near a month's edge. The second branch, unbounded, runs only when the first found
 * nothing (LIMIT 1 stops the Append at the first row): a row whose created strays from its id (planted by hand, a
 * skewed clock) is slower to find, never lost. Each branch has its own LIMIT, and the second an order the primary
 * key gives, so both plan as index probes even when the plan is made on small tables (a generic plan would otherwise
 * read every partition by bitmap; packages/db/test/fan-out-plan.test.ts).
 */
export function rowByIdSql(table: PartitionedTable, columns: string, idExpr: string): string {
  return `((SELECT ${columns} FROM ${table}
             WHERE ${table}.id = ${idExpr}
               AND ${table}.created >= risk_id_time(${idExpr}, -${ID_TIME_SLACK_MS})
               AND ${table}.created < risk_id_time(${idExpr}, ${ID_TIME_SLACK_MS})
             LIMIT 1)
           UNION ALL
           (SELECT ${columns} FROM ${table} WHERE ${table}.id = ${idExpr} ORDER BY ${table}.created DESC LIMIT 1)
           LIMIT 1)`;
}

/**
 * The same look-up for a statement planned on every call (a bind parameter, not a prepared plan): `WHERE` of one row
 * of `alias` by id, bounded like rowByIdSql's first branch or not. The caller reads bounded first and unbounded only
 * on a miss (readById). With a constant id the planner prunes to one partition while planning; the two-branch form
 * would plan every partition's read on each call (docs/scaling.md: about 0.8 ms against 0.13 ms at 31 partitions).
 */
export function idWhere(alias: string, id: string, bounded: boolean): Prisma.Sql {
  const a = Prisma.raw(alias);
  return bounded
    ? Prisma.sql`${a}.id = ${id} AND ${a}.created >= risk_id_time(${id}, ${-ID_TIME_SLACK_MS}::bigint)
                 AND ${a}.created < risk_id_time(${id}, ${ID_TIME_SLACK_MS}::bigint)`
    : Prisma.sql`${a}.id = ${id}`;
}

/** Runs `read` bounded to the id's month, then unbounded only if that found nothing (idWhere). */
export async function readById<T>(read: (bounded: boolean) => Promise<T[]>): Promise<T | undefined> {
  return (await read(true))[0] ?? (await read(false))[0];
}

/** Months created ahead of the current one, so inserts never wait on maintenance. */
export const MONTHS_AHEAD = 3;

/** Start of the UTC month holding `t`, plus `add` months. */
export function monthStart(t: Date, add = 0): Date {
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + add, 1));
}

/**
 * Creates the partitions of the current month and MONTHS_AHEAD more, and those of any month whose rows sit in the
 * DEFAULT partition (moved out by `risk_ensure_month_partition`, so the default stays empty). Returns the partitions
 * created (`signals_y2027m01`).
 */
export async function ensureMonthPartitions(db: Pick<Pool, 'query'>, now: Date): Promise<string[]> {
  const ahead = Array.from({ length: MONTHS_AHEAD + 1 }, (_, i) => monthStart(now, i));
  const created: string[] = [];
  for (const table of PARTITIONED_TABLES) {
    const { rows } = await db.query<{ month: Date; created: boolean }>(
      `SELECT m.month, risk_ensure_month_partition($1, m.month) AS created
         FROM (SELECT unnest($2::timestamptz[]) AS month
               UNION
               SELECT DISTINCT date_trunc('month', created AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' FROM ${table}_default) m
        ORDER BY m.month`,
      [table, ahead],
    );
    for (const r of rows) if (r.created) created.push(partitionName(table, r.month));
  }
  return created;
}

function partitionName(table: PartitionedTable, month: Date): string {
  return `${table}_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Rows in each table's DEFAULT partition (0 once maintenance has created their months). */
export async function defaultPartitionRows(db: Pick<Pool, 'query'>): Promise<Record<PartitionedTable, number>> {
  const { rows } = await db.query<{ signals: number; events: number }>(
    `SELECT (SELECT count(*) FROM signals_default)::int AS signals, (SELECT count(*) FROM events_default)::int AS events`,
  );
  return rows[0]!;
}

/** The month partitions of `table` with their upper bounds, oldest first (the DEFAULT partition is not one). */
async function monthPartitions(db: Pick<PoolClient, 'query'>, table: PartitionedTable) {
  const { rows } = await db.query<{ name: string; hi: Date }>(
    `SELECT c.relname AS name, b.hi
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       CROSS JOIN LATERAL (
         SELECT (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::timestamptz AS hi) b
      WHERE i.inhparent = $1::regclass AND b.hi IS NOT NULL
      ORDER BY b.hi`,
    [table],
  );
  return rows;
}

/**
 * A signal some row still points at: an org's or an asset's latest observation (enrichment reads its manifest), or a
 * bulk signal whose projection is pending. `s` is the signals alias.
 */
const SIGNAL_REFERENCED = `(EXISTS (SELECT 1 FROM asset_orgs ao WHERE ao.latest_signal_id = s.id)
       OR EXISTS (SELECT 1 FROM assets a WHERE a.latest_signal_id = s.id)
       OR EXISTS (SELECT 1 FROM signal_projections p WHERE p.signal_id = s.id))`;

export interface RetentionResult {
  /** rows removed: those of the dropped months and those past the cut-off in the DEFAULT partition */
  rows: number;
  dropped: string[];
  /** months past retention kept because a row still points at one of their signals */
  kept: string[];
}

/**
 * Retention by whole months: every month partition of `table` that ends at or before `before` is detached and dropped
 * (no DELETE, no vacuum debt), and rows older than `before` in the DEFAULT partition are deleted. An event's deliveries
 * go with it (they carry its created: no foreign key reaches a partitioned table). A signals month still referenced
 * (SIGNAL_REFERENCED) is kept and reported. Each month in its own transaction; DETACH briefly takes the parent's
 * ACCESS EXCLUSIVE lock, bounded by a lock timeout so a long reader delays the drop to the next run, not the inserts.
 */
export async function dropExpiredMonths(
  db: Pick<Pool, 'connect'>,
  input: { table: PartitionedTable; before: Date },
): Promise<RetentionResult> {
  const { table, before } = input;
  const result: RetentionResult = { rows: 0, dropped: [], kept: [] };
  const client = await db.connect();
  try {
    for (const part of await monthPartitions(client, table)) {
      if (part.hi.getTime() > before.getTime()) break;
      await client.query('BEGIN');
      try {
        if (table === 'signals') {
          const { rowCount } = await client.query(`SELECT 1 FROM ${part.name} s WHERE ${SIGNAL_REFERENCED} LIMIT 1`);
          if (rowCount) {
            await client.query('ROLLBACK');
            result.kept.push(part.name);
            continue;
          }
        } else {
          await client.query('DELETE FROM webhook_deliveries WHERE event_created < $1', [part.hi]);
        }
        const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${part.name}`);
        await client.query(`SET LOCAL lock_timeout = '5s'`);
        await client.query(`ALTER TABLE ${table} DETACH PARTITION ${part.name}`);
        await client.query(`DROP TABLE ${part.name}`);
        await client.query('COMMIT');
        result.rows += rows[0]!.n;
        result.dropped.push(part.name);
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    }
    const { rows } = await client.query<{ n: number }>(
      table === 'events'
        ? `WITH gone AS (DELETE FROM events_default WHERE created < $1 RETURNING id, created),
                deliveries AS (DELETE FROM webhook_deliveries d USING gone
                                WHERE d.event_id = gone.id AND d.event_created = gone.created)
           SELECT count(*)::int AS n FROM gone`
        : `WITH gone AS (DELETE FROM signals_default s WHERE s.created < $1 AND NOT ${SIGNAL_REFERENCED} RETURNING 1)
           SELECT count(*)::int AS n FROM gone`,
      [before],
    );
    result.rows += rows[0]!.n;
    return result;
  } finally {
    client.release();
  }
}
