import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaClient } from './generated/prisma/client';
import { POOL_TYPES } from './sql/type-parsers';

export interface CreatePrismaOptions {
  url: string;
  /** shows up in pg_stat_activity, so an operator can tell services apart */
  applicationName: string;
  /** pool size; the sum over processes must stay below Postgres max_connections */
  max?: number;
  /**
   * Postgres statement_timeout / lock_timeout for every connection of the pool, in ms (0 = no limit):
   * one slow statement cannot hold a connection, and a lock wait cannot queue behind a held row, for
   * longer than this (docs/security.md, "Analysis under a budget"). Services pass
   * DATABASE_STATEMENT_TIMEOUT_MS / DATABASE_LOCK_TIMEOUT_MS; the defaults are theirs.
   */
  statementTimeoutMs?: number;
  lockTimeoutMs?: number;
  onPoolError?: (err: Error) => void;
}

export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;
export const DEFAULT_LOCK_TIMEOUT_MS = 5_000;

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
 * timestamptz under other time zones (prisma/orm#28629). statement_timeout and lock_timeout are
 * startup parameters of each connection (pg sends them in the startup message), so they hold for
 * Prisma's queries and the raw ones on `pool` alike. The migration runner (migrate.ts) uses its own
 * clients without them: a migration may legitimately run long. JIT compilation is off for the same
 * sessions: the batched reads (a lateral per key over unnest'ed arrays) are estimated far above
 * jit_above_cost, and compiling them cost ~35–45 ms per execution against a few ms of work
 * (docs/performance.md "JIT off").
 */
export function createPrisma(opts: CreatePrismaOptions): DbHandle {
  const pool = new Pool({
    connectionString: opts.url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 10000,
    application_name: opts.applicationName,
    options: '-c timezone=UTC -c jit=off',
    statement_timeout: opts.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    lock_timeout: opts.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
    // raw queries read timestamptz with a one-pass parser (sql/type-parsers.ts); Prisma passes its own
    types: POOL_TYPES,
  });
  pool.on('error', (err) => opts.onPoolError?.(err));
  // pg-pool listens for a client's errors only while it is idle: a connection checked out (pool.connect())
  // whose backend is terminated between two queries would emit an unhandled 'error' and exit the process.
  // Whoever holds it sees its next query fail, and pg-pool discards a non-queryable client on release
  // (docs/reliability.md "Fault suite"), so this listener only has to exist.
  pool.on('connect', (client) => client.on('error', () => undefined));
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
