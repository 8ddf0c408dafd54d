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
