import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaClient } from './generated/prisma/client';

export interface CreatePrismaOptions {
  url: string;
  /** shows up in pg_stat_activity, so an operator can tell services apart */
  applicationName: string;
  /** pool size; the sum over processes must stay below Postgres max_connections */
  max?: number;
  onPoolError?: (err: Error) => void;
}

export type Db = PrismaClient;

export interface DbHandle {
  prisma: PrismaClient;
  /** the same pool Prisma uses: for raw multi-row statements on hot paths (bulk ingest, outbox relay) */
  pool: Pool;
  close(): Promise<void>;
}

/**
 * Builds the pg Pool explicitly (pg leaves connectionTimeoutMillis unset, which waits forever on an
 * exhausted pool) and hands it to Prisma's pg adapter. Sessions run in UTC: adapter-pg mis-stores
 * timestamptz under other time zones (prisma/orm#28629).
 */
export function createPrisma(opts: CreatePrismaOptions): DbHandle {
  const pool = new Pool({
    connectionString: opts.url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 10000,
    application_name: opts.applicationName,
    options: '-c timezone=UTC',
  });
  pool.on('error', (err) => opts.onPoolError?.(err));
  const adapter = new PrismaPg(pool, { disposeExternalPool: false });
  const prisma = new PrismaClient({ adapter, transactionOptions: { maxWait: 5000, timeout: 15000 } });
  let closed = false;
  return {
    prisma,
    pool,
    async close() {
      if (closed) return;
      closed = true;
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
