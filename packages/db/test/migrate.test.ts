import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { dropDatabase, ensureDatabase, migrate, MIGRATIONS_DIR, MigrationError, readMigrations } from '../src';
import { scratchDatabase } from './scratch-database';

/** a fresh database name on the test server; each test creates and drops it itself */
const scratchUrl = (label: string) => scratchDatabase(label).url;

describe('migrate runner', () => {
  it('records each migration in _prisma_migrations with the SHA-256 of its file, and is idempotent', async () => {
    const url = scratchUrl('mig');
    await ensureDatabase(url);
    try {
      const first = await migrate(url);
      expect(first.applied).toEqual(readMigrations().map((m) => m.name));
      const second = await migrate(url);
      expect(second.applied).toEqual([]);
      expect(second.alreadyApplied).toEqual(first.applied);
      const c = new Client({ connectionString: url });
      await c.connect();
      const { rows } = await c.query(
        'SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations',
      );
      await c.end();
      const files = readMigrations();
      expect(rows).toHaveLength(files.length);
      expect(rows[0].checksum).toBe(files[0]!.checksum);
      expect(rows[0].checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(rows[0].finished_at).toBeInstanceOf(Date);
      expect(rows[0].applied_steps_count).toBe(1);
    } finally {
      await dropDatabase(url);
    }
  });

  it('runs safely when two processes migrate at once (advisory lock)', async () => {
    const url = scratchUrl('race');
    await ensureDatabase(url);
    try {
      const [a, b] = await Promise.all([migrate(url), migrate(url)]);
      expect([...a.applied, ...b.applied].sort()).toEqual(
        readMigrations()
          .map((m) => m.name)
          .sort(),
      );
    } finally {
      await dropDatabase(url);
    }
  });

  it('refuses a migration whose file changed after it was applied', async () => {
    const url = scratchUrl('edit');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mig-'));
    fs.cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    await ensureDatabase(url);
    try {
      await migrate(url, { dir });
      const name = readMigrations(dir)[0]!.name;
      fs.appendFileSync(path.join(dir, name, 'migration.sql'), '\n-- edited\n');
      await expect(migrate(url, { dir })).rejects.toThrow(MigrationError);
      await expect(migrate(url, { dir })).rejects.toThrow(/modified after it was applied/);
    } finally {
      await dropDatabase(url);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ensureDatabase creates a missing database once', async () => {
    const url = scratchUrl('ensure');
    try {
      expect(await ensureDatabase(url)).toBe(true);
      expect(await ensureDatabase(url)).toBe(false);
    } finally {
      await dropDatabase(url);
    }
  });
});
