import { createPrisma, type DbHandle } from '../src';
import { scratchDatabase } from './scratch-database';

// docs/security.md, "Analysis under a budget": every pool's connections carry statement_timeout and
// lock_timeout, so a slow statement or a lock wait ends with an error instead of holding on.
describe('createPrisma timeouts', () => {
  const scratch = scratchDatabase('timeouts');
  const { url } = scratch;
  let db: DbHandle;
  let defaults: DbHandle;

  beforeAll(async () => {
    // the migration runner is unaffected: its own clients carry no timeouts
    await scratch.create({ migrate: true });
    db = createPrisma({ url, applicationName: 'timeouts-test', max: 3, statementTimeoutMs: 300, lockTimeoutMs: 200 });
    defaults = createPrisma({ url, applicationName: 'timeouts-test-defaults', max: 1 });
  });
  afterAll(async () => {
    await db.close();
    await defaults.close();
    await scratch.drop();
  });

  it('sets statement_timeout and lock_timeout on every connection (defaults 15 s and 5 s)', async () => {
    const show = async (h: DbHandle) => {
      const { rows } = await h.pool.query<{ s: string; l: string }>(
        "SELECT current_setting('statement_timeout') AS s, current_setting('lock_timeout') AS l",
      );
      return rows[0];
    };
    expect(await show(db)).toEqual({ s: '300ms', l: '200ms' });
    expect(await show(defaults)).toEqual({ s: '15s', l: '5s' });
    // Prisma's queries run on the same connections
    const viaPrisma = await db.prisma.$queryRaw<Array<{ s: string }>>`SELECT current_setting('statement_timeout') AS s`;
    expect(viaPrisma[0]!.s).toBe('300ms');
  });

  it('cancels a statement past statement_timeout (57014) and a lock wait past lock_timeout (55P03)', async () => {
    await expect(db.pool.query('SELECT pg_sleep(5)')).rejects.toMatchObject({ code: '57014' });

    await db.pool.query(
      'CREATE TABLE IF NOT EXISTS lock_probe (id int PRIMARY KEY); INSERT INTO lock_probe VALUES (1) ON CONFLICT DO NOTHING',
    );
    const holder = await db.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT * FROM lock_probe WHERE id = 1 FOR UPDATE');
      // 55P03 is lock_timeout's own code: the wait was cut by it, not by statement_timeout (57014) or a hang
      await expect(db.pool.query('UPDATE lock_probe SET id = 1 WHERE id = 1')).rejects.toMatchObject({ code: '55P03' });
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
  });
});
