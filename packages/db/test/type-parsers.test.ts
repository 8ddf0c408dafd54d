import fc from 'fast-check';
import { Pool, types } from 'pg';
import { createPrisma } from '../src';
import { scratchDatabase } from './scratch-database';
import { parseTimestamptz } from '../src/sql/type-parsers';

const pgParser = types.getTypeParser(1184, 'text') as (s: string) => unknown;

/** what a parser gave, comparable with toEqual (Invalid Date and numbers included) */
const outcome = (v: unknown) => (v instanceof Date ? { date: v.getTime() } : { value: v });

const pad = (n: number, w: number) => String(n).padStart(w, '0');
/** the form a UTC session sends, with 0–6 fraction digits */
const canonical = fc
  .record({
    ms: fc.integer({ min: Date.UTC(100, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }),
    micros: fc.integer({ min: 0, max: 999_999 }),
    digits: fc.integer({ min: 0, max: 6 }),
  })
  .map(({ ms, micros, digits }) => {
    const d = new Date(ms);
    const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
    const time = `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
    const fraction = digits === 0 ? '' : `.${pad(micros, 6).slice(0, digits)}`;
    return `${date} ${time}${fraction}+00`;
  });

describe('parseTimestamptz (docs/performance.md "the 500-key look-up")', () => {
  it('gives the Date pg gives for every value a UTC session sends', () => {
    fc.assert(
      fc.property(canonical, (s) => {
        expect(outcome(parseTimestamptz(s))).toEqual(outcome(pgParser(s)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('gives what pg gives for anything else: other offsets, BC, infinity, early years, broken text', () => {
    const near = fc
      .tuple(canonical, fc.nat(28), fc.constantFrom('x', '-', '5', '.', ' ', '+', '9', ':', ''))
      .map(([s, i, c]) => s.slice(0, i) + c + s.slice(i + 1));
    for (const s of [
      'infinity',
      '-infinity',
      '2026-11-24 15:32:02+00 BC',
      '0050-01-01 00:00:00+00',
      '0099-12-31 23:59:59.999+00',
      '2026-11-24 15:32:02+05:30',
      '2026-11-24 15:32:02.1234567+00',
      '2026-11-24 15:32:02.+00',
      '2026-11-24',
      '',
    ])
      expect(outcome(parseTimestamptz(s))).toEqual(outcome(pgParser(s)));
    fc.assert(
      fc.property(fc.oneof(near, fc.string({ maxLength: 32 })), (s) => {
        expect(outcome(parseTimestamptz(s))).toEqual(outcome(pgParser(s)));
      }),
      { numRuns: 20_000 },
    );
  });

  describe('on a pool', () => {
    const scratch = scratchDatabase('types');
    const { url } = scratch;
    let plain: Pool;
    let db: ReturnType<typeof createPrisma>;

    beforeAll(async () => {
      await scratch.create();
      plain = new Pool({ connectionString: url, max: 1, options: '-c timezone=UTC' });
      db = createPrisma({ url, applicationName: 'types-test', max: 1 });
    });
    afterAll(async () => {
      await plain.end();
      await db.close();
      await scratch.drop();
    });

    it("reads every timestamptz Postgres sends as pg's own parser does", async () => {
      const sql = `SELECT v FROM unnest(ARRAY[
          '2026-11-24 15:32:02.5+00', '2026-11-24 15:32:02.123456+00', '2026-11-24 15:32:02+00',
          '0050-06-01 12:00:00+00', '0001-01-01 00:00:00+00 BC', 'infinity', '-infinity', NULL
        ]::timestamptz[]) AS v
        UNION ALL SELECT to_timestamp(g * 8000003.123457) FROM generate_series(1, 500) g`;
      const [fast, reference] = await Promise.all([db.pool.query(sql), plain.query(sql)]);
      expect(fast.rows.map((r) => outcome(r.v))).toEqual(reference.rows.map((r) => outcome(r.v)));
      expect(fast.rows.filter((r) => r.v instanceof Date).length).toBeGreaterThan(500);
    });
  });
});
