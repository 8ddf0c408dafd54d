// The migrated template database the test suites clone (@risk/testing createScratchDatabase): made once per set of
// migrations, so a suite's database is a copy (~100 ms) rather than a migration run.
import { Client } from 'pg';
import { migrate, quoteIdent, withDatabase } from './migrate';

/** Advisory lock key: serialises template creation across parallel jest workers. */
const TEMPLATE_LOCK_KEY = 4242001;

/**
 * Creates database `name` on the server of `baseUrl`, migrated, unless it exists: built under another name and renamed
 * when complete, so a half-built template is never cloned.
 */
export async function ensureMigratedTemplate(baseUrl: string, name: string): Promise<void> {
  const admin = new Client({ connectionString: withDatabase(baseUrl, 'postgres') });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      const building = `${name}_build`;
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(building)} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${quoteIdent(building)}`);
      await migrate(withDatabase(baseUrl, building));
      await admin.query(`ALTER DATABASE ${quoteIdent(building)} RENAME TO ${quoteIdent(name)}`);
    }
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
  } finally {
    await admin.end();
  }
}
