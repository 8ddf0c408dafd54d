// The outbox (docs/reliability.md "Outbox relay", "Enrichment jobs"): marking rows processed after the API's
// post-commit enqueue, the relay's claim-enqueue-mark transaction, and the purge of processed rows.
import type { Pool } from 'pg';
import { literal } from '../sql/literal';

/** One claimed outbox row: its id (names an enrichment job), kind and payload. */
export interface OutboxRow {
  id: string;
  kind: string;
  payload: unknown;
}

/** What the relay did with the rows it claimed: the ids enqueued, and those that failed (with their error). */
export interface OutboxOutcome {
  done: string[];
  /** Redis refused: the rows stay for the next pass, with attempts/last_error */
  failed: Array<{ id: string; error: string }>;
  /** the rows can never become a job: set aside (dead-lettered) with the error */
  dead: Array<{ id: string; error: string }>;
}

/**
 * Marks outbox rows processed in one round trip, without waiting for the WAL flush: a mark lost in a crash only
 * makes the relay enqueue the job again (the job id deduplicates it). Ids that are not decimal are ignored. The
 * statements travel as one simple query (`BEGIN; SET LOCAL …; UPDATE …; COMMIT`), so the ids are inlined as a
 * literal array (docs/data-access.md "Literals").
 */
export async function markOutboxProcessedAsync(db: Pick<Pool, 'connect'>, ids: readonly string[]): Promise<void> {
  const decimal = ids.filter((id) => /^\d+$/.test(id));
  if (decimal.length === 0) return;
  const client = await db.connect();
  try {
    await client.query(
      `BEGIN; SET LOCAL synchronous_commit = off; UPDATE outbox SET processed_at = now() WHERE id = ANY(${literal.textArray(decimal)}::bigint[]); COMMIT`,
    );
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined); // never hand back a connection in a failed transaction
    throw err;
  } finally {
    client.release();
  }
}

/**
 * The relay's pass over the outbox in one transaction: claims up to `batchSize` due rows with FOR UPDATE SKIP LOCKED
 * (several workers never take the same rows), hands them to `relay` (which enqueues them and says what became of
 * each), then marks them in the same transaction. Nothing claimed: `relay` is not called. Returns the rows claimed
 * and the outcome.
 */
export async function relayOutboxRows(
  db: Pick<Pool, 'connect'>,
  batchSize: number,
  relay: (rows: OutboxRow[]) => Promise<OutboxOutcome>,
): Promise<{ rows: OutboxRow[]; outcome: OutboxOutcome }> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<OutboxRow>(
      `SELECT id::text AS id, kind, payload FROM outbox
        WHERE processed_at IS NULL AND dead_lettered_at IS NULL AND available_at <= now()
        ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [batchSize],
    );
    if (rows.length === 0) {
      await client.query('COMMIT');
      return { rows, outcome: { done: [], failed: [], dead: [] } };
    }
    const outcome = await relay(rows);
    const { done, failed, dead } = outcome;
    if (done.length) await client.query('UPDATE outbox SET processed_at = now() WHERE id = ANY($1::bigint[])', [done]);
    if (failed.length) {
      await client.query(
        `UPDATE outbox SET attempts = attempts + 1, last_error = f.error
           FROM unnest($1::bigint[], $2::text[]) AS f(id, error) WHERE outbox.id = f.id`,
        [failed.map((f) => f.id), failed.map((f) => f.error.slice(0, 500))],
      );
    }
    if (dead.length) {
      await client.query(
        `UPDATE outbox SET attempts = attempts + 1, last_error = f.error, dead_lettered_at = now()
           FROM unnest($1::bigint[], $2::text[]) AS f(id, error) WHERE outbox.id = f.id`,
        [dead.map((f) => f.id), dead.map((f) => f.error.slice(0, 500))],
      );
    }
    await client.query('COMMIT');
    return { rows, outcome };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Deletes the outbox rows processed before `before`; returns how many. */
export async function purgeProcessedOutbox(db: Pick<Pool, 'query'>, before: Date): Promise<number> {
  return (await db.query('DELETE FROM outbox WHERE processed_at < $1', [before])).rowCount ?? 0;
}

/**
 * Seconds since the oldest due, unrelayed outbox row became due (0: none waits). The index on
 * (processed_at, available_at) answers min(available_at) without reading the rows; a webhook retry scheduled for
 * later is not lag.
 */
export async function outboxLagSeconds(db: Pick<Pool, 'query'>): Promise<number> {
  const { rows } = await db.query<{ lag: number }>(
    `SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(available_at)), 0)::float8 AS lag
       FROM outbox WHERE processed_at IS NULL AND available_at <= now()`,
  );
  return rows[0]?.lag ?? 0;
}
