import { randomBytes } from 'node:crypto';
import { dropDatabase, ensureDatabase, migrate, withDatabase } from '../src';

/** the test server's default database (DATABASE_URL in CI) */
export const TEST_SERVER_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/**
 * A database of its own for one suite, `risk_t_<label>_<random>` on the test server: `create()` in beforeAll
 * (with the migrations applied when asked), `drop()` in afterAll once the suite's connections are closed.
 */
export function scratchDatabase(label: string) {
  const url = withDatabase(TEST_SERVER_URL, `risk_t_${label}_${randomBytes(4).toString('hex')}`);
  return {
    url,
    async create(opts: { migrate?: boolean } = {}): Promise<void> {
      await ensureDatabase(url);
      if (opts.migrate) await migrate(url);
    },
    drop: (): Promise<void> => dropDatabase(url),
  };
}
