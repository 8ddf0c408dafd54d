import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';

/** Prisma Migrate's own advisory lock key, so our runner and `prisma migrate deploy` exclude each other. */
const PRISMA_ADVISORY_LOCK_KEY = 72707369;

export const MIGRATIONS_DIR = path.join(__dirname, '..', 'prisma', 'migrations');

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
}

export class MigrationError extends Error {}

export function readMigrations(dir = MIGRATIONS_DIR): MigrationFile[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, 'migration.sql')))
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      // Prisma's checksum is the SHA-256 hex digest of the migration file's bytes.
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

// The ledger exactly as Prisma Migrate creates it, so `prisma migrate status/deploy` agree with us.
const LEDGER_DDL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Applies pending migrations the way `prisma migrate deploy` does: under an advisory lock, each file
 * in its own transaction, recorded in `_prisma_migrations`. Refuses to continue when an applied
 * migration's file has changed since, or when an earlier attempt failed half-way.
 */
export async function migrate(
  url: string,
  opts: { dir?: string; log?: (msg: string) => void } = {},
): Promise<MigrateResult> {
  const log = opts.log ?? (() => undefined);
  const files = readMigrations(opts.dir);
  // no statement_timeout / lock_timeout here, unlike createPrisma's pools (docs/security.md): a migration
  // may legitimately run long (an index build), and the advisory lock below serialises runners
  const client = new Client({ connectionString: url, application_name: 'risk-migrate' });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK_KEY]);
    try {
      await client.query(LEDGER_DDL);
      const { rows } = await client.query<{
        migration_name: string;
        checksum: string;
        finished_at: Date | null;
        rolled_back_at: Date | null;
      }>('SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at');
      const done = new Map<string, string>();
      for (const row of rows) {
        if (row.rolled_back_at) continue;
        if (!row.finished_at) {
          throw new MigrationError(
            `Migration ${row.migration_name} failed earlier and was not rolled back; fix the database, then mark it rolled back.`,
          );
        }
        done.set(row.migration_name, row.checksum);
      }
      const result: MigrateResult = { applied: [], alreadyApplied: [] };
      for (const file of files) {
        const appliedChecksum = done.get(file.name);
        if (appliedChecksum !== undefined) {
          if (appliedChecksum !== file.checksum) {
            throw new MigrationError(
              `Migration ${file.name} was modified after it was applied (checksum ${appliedChecksum.slice(0, 12)}… in the database, ${file.checksum.slice(0, 12)}… on disk). Add a new migration instead of editing an applied one.`,
            );
          }
          result.alreadyApplied.push(file.name);
          continue;
        }
        const id = randomUUID();
        await client.query('BEGIN');
        try {
          await client.query(
            'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
            [id, file.checksum, file.name],
          );
          await client.query(file.sql);
          await client.query(
            'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
            [id],
          );
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new MigrationError(`Migration ${file.name} failed: ${(err as Error).message}`);
        }
        log(`applied migration ${file.name}`);
        result.applied.push(file.name);
      }
      return result;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_ADVISORY_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
}

/**
 * Creates the database named in `url` when it does not exist. Returns true when it was created. `asyncCommit`
 * makes its sessions commit without waiting for the WAL flush (synchronous_commit = off): for scratch databases
 * of tests, where a commit's ~10 ms of fsync on a busy disk is most of an integration suite's time and a
 * crash loses nothing that matters.
 */
export async function ensureDatabase(
  url: string,
  opts: { template?: string; asyncCommit?: boolean } = {},
): Promise<boolean> {
  const name = databaseName(url);
  const admin = new Client({ connectionString: withDatabase(url, 'postgres'), application_name: 'risk-migrate' });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return false;
    const template = opts.template ? ` TEMPLATE ${quoteIdent(opts.template)}` : '';
    try {
      await admin.query(`CREATE DATABASE ${quoteIdent(name)}${template}`);
    } catch (err) {
      // 42P04 duplicate_database: another process created it between our check and create.
      if ((err as { code?: string }).code === '42P04') return false;
      throw err;
    }
    if (opts.asyncCommit) await admin.query(`ALTER DATABASE ${quoteIdent(name)} SET synchronous_commit = off`);
    return true;
  } finally {
    await admin.end();
  }
}

export async function dropDatabase(url: string): Promise<void> {
  const admin = new Client({ connectionString: withDatabase(url, 'postgres'), application_name: 'risk-migrate' });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(databaseName(url))} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** Drops every object of the public schema and re-applies all migrations (`db reset`). */
export async function resetDatabase(url: string, log?: (msg: string) => void): Promise<MigrateResult> {
  const client = new Client({ connectionString: url, application_name: 'risk-migrate' });
  await client.connect();
  try {
    await client.query('DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;');
  } finally {
    await client.end();
  }
  return migrate(url, { log });
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export { withDatabase };
