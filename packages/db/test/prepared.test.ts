import fc from 'fast-check';
import { escapeLiteral, Pool } from 'pg';
import { scratchDatabase, TEST_SERVER_URL } from './scratch-database';
import { literal, PreparedStatements, withPrepared } from '../src/sql';

// docs/data-access.md "Prepared statements": a connection whose PREPARE failed or broke is discarded.
describe('withPrepared', () => {
  const scratch = scratchDatabase('prepared');
  const { url } = scratch;
  let pool: Pool;
  let admin: Pool;

  beforeAll(async () => {
    await scratch.create();
    // one connection: whatever the pool hands out next is the connection the previous use left behind
    pool = new Pool({ connectionString: url, max: 1 });
    admin = new Pool({ connectionString: url, max: 1 });
  });
  afterAll(async () => {
    await pool.end();
    await admin.end();
    await scratch.drop();
  });

  const pid = async (s: { run(sql: string): Promise<Array<{ rows: unknown[] }>> }) =>
    ((await s.run('SELECT pg_backend_pid() AS pid'))[0]!.rows[0] as { pid: number }).pid;

  it('discards a connection whose PREPARE failed half-way, so the next use prepares on a fresh one', async () => {
    // the second statement names a table that does not exist yet: PREPARE of the first one succeeds
    // and, PREPARE not being transactional, stays defined on the connection
    const statements = new PreparedStatements({
      tp_one: { types: ['int'], sql: 'SELECT $1::int + 1 AS n' },
      tp_later: { types: ['text'], sql: 'SELECT count(*)::int AS n FROM later_table WHERE name = $1' },
    });
    await expect(withPrepared(pool, statements, async () => 'ran')).rejects.toThrow(/later_table/);
    await admin.query('CREATE TABLE later_table (name text)');
    await admin.query(`INSERT INTO later_table VALUES ('a'), ('a')`);
    // before the fix this connection came back with tp_one prepared and failed with 42P05 for good
    const out = await withPrepared(pool, statements, async (s) => {
      const r = await s.run(
        `${statements.execute('tp_one', [literal.int(41)])}; ${statements.execute('tp_later', [literal.text('a')])}`,
      );
      return r.map((q) => (q.rows[0] as { n: number }).n);
    });
    expect(out).toEqual([42, 2]);
  });

  it('keeps a connection after an ordinary statement error and rolls back its open transaction', async () => {
    const statements = new PreparedStatements({ tp_div: { types: ['int'], sql: 'SELECT 1 / $1 AS n' } });
    await admin.query('CREATE TABLE IF NOT EXISTS rolled (n int)');
    const first = await withPrepared(pool, statements, (s) => pid(s));
    await expect(
      withPrepared(pool, statements, async (s) => {
        s.inTransaction = true;
        await s.run(`BEGIN; INSERT INTO rolled VALUES (1); ${statements.execute('tp_div', [literal.int(0)])}`);
      }),
    ).rejects.toThrow(/division by zero/);
    const after = await withPrepared(pool, statements, async (s) => ({
      pid: await pid(s),
      inTx: (await s.run('SELECT now() = statement_timestamp() AS fresh'))[0]!.rows[0],
    }));
    expect(after.pid).toBe(first); // the same connection, healthy and out of any transaction
    expect(after.inTx).toEqual({ fresh: true });
    expect((await admin.query('SELECT count(*)::int AS n FROM rolled')).rows[0]).toEqual({ n: 0 });
  });

  it('discards a connection the server terminated', async () => {
    const statements = new PreparedStatements({ tp_pid: { types: [], sql: 'SELECT pg_backend_pid() AS pid' } });
    const first = await withPrepared(pool, statements, (s) => pid(s));
    await expect(
      withPrepared(pool, statements, async (s) => {
        await admin.query('SELECT pg_terminate_backend($1)', [first]);
        await s.run(statements.execute('tp_pid', []));
      }),
    ).rejects.toThrow();
    const second = await withPrepared(pool, statements, async (s) => pid(s));
    expect(second).not.toBe(first);
  });
});

describe('literal', () => {
  // the EXECUTE texts carry values as SQL literals: the escaping must equal pg's escapeLiteral
  it('formats a string exactly as pg escapeLiteral does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(literal.string(s)).toBe(escapeLiteral(s));
      }),
      { numRuns: 2000 },
    );
    for (const s of ["it's", 'back\\slash', "\\'", "''\\\\", "'); DROP TABLE signals; --"])
      expect(literal.string(s)).toBe(escapeLiteral(s));
  });

  let pool: Pool;
  beforeAll(() => {
    pool = new Pool({ connectionString: TEST_SERVER_URL, max: 1 });
  });
  afterAll(() => pool.end());

  it('round-trips hostile strings, arrays, numbers, booleans and dates through Postgres unchanged', async () => {
    const hostile = ["'; DROP TABLE x; --", "back\\slash \\' quote", "E'x'", '$$dollar$$', 'ünïcødé 🦀', "''", '\\'];
    const when = new Date('2026-01-02T03:04:05.678Z');
    const sql = `SELECT ${literal.textArray([...hostile, null])} AS texts, ${literal.text(hostile[1])} AS one,
      ${literal.jsonb({ a: hostile })}::jsonb AS doc, ${literal.intArray([1, -2, 3.9])} AS ints,
      ${literal.boolArray([true, false])} AS bools, ${literal.timestamptz(when)} AS at,
      ${literal.timestamptzArray([when])} AS ats, ${literal.text(null)} AS nothing, ${literal.textArray([])} AS empty`;
    const { rows } = await pool.query(sql);
    expect(rows[0]).toEqual({
      texts: [...hostile, null],
      one: hostile[1],
      doc: { a: hostile },
      ints: [1, -2, 3],
      bools: [true, false],
      at: when,
      ats: [when],
      nothing: null,
      empty: [],
    });
  });

  it('refuses values that cannot be literals', () => {
    expect(() => literal.int(Number.NaN)).toThrow(/finite/);
    expect(() => literal.float(Number.POSITIVE_INFINITY)).toThrow(/finite/);
    expect(() => literal.timestamptz(new Date(Number.NaN))).toThrow(/invalid date/);
  });
});
