// The database's liveness probe (health endpoints, start-up checks): one trivial statement.
import type { ClientBase, Pool } from 'pg';
import type { PrismaClient } from '../generated/prisma/client';

/** Resolves once Postgres answers `SELECT 1` on this handle (a pg Pool or client, or a Prisma client). */
export async function pingDatabase(
  db: Pick<Pool, 'query'> | Pick<ClientBase, 'query'> | Pick<PrismaClient, '$queryRaw'>,
): Promise<void> {
  if ('$queryRaw' in db) await db.$queryRaw`SELECT 1`;
  else await db.query('SELECT 1');
}

/**
 * How far a streaming replica's replay is behind, in seconds (docs/scaling.md "Read replicas"): 0 on a primary and
 * on a replica that has replayed all it received; otherwise the age of the last transaction it replayed. An idle
 * primary sends no commits, so a replica that is caught up is not counted as lagging however old its last replay is.
 */
export async function replicaLagSeconds(db: Pick<Pool, 'query'>): Promise<number> {
  const { rows } = await db.query<{ lag: number }>(
    `SELECT CASE
              WHEN NOT pg_is_in_recovery() THEN 0
              WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
              ELSE GREATEST(COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0), 0)
            END::float8 AS lag`,
  );
  return rows[0]?.lag ?? 0;
}
