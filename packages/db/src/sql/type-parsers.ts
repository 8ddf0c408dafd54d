import { types, type CustomTypesConfig } from 'pg';

/**
 * The type parsers of every pool's raw queries (client.ts; Prisma's adapter passes its own per query).
 *
 * pg parses each `timestamptz` value with postgres-date, a handful of regular expressions per value: a
 * 500-asset look-up reads 2,500 of them and spent ~13 % of its time there (docs/performance.md,
 * "the 500-key look-up"). Our sessions run in UTC (client.ts), so Postgres sends every value as
 * `YYYY-MM-DD HH:MM:SS[.ffffff]+00`; that form is read here with one pass over the characters, and
 * anything else (infinity, BC, years before 100, another offset) goes to pg's own parser, so the
 * result is always the Date pg would give (type-parsers.test.ts checks it against pg's parser).
 */
const TIMESTAMPTZ_OID = 1184;
const pgTimestamptz = types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (value: string) => Date | number | null;

const ZERO = 48;
const digit = (s: string, i: number): number => {
  const d = s.charCodeAt(i) - ZERO;
  return d >= 0 && d <= 9 ? d : NaN;
};
const two = (s: string, i: number): number => digit(s, i) * 10 + digit(s, i + 1);

/** `YYYY-MM-DD HH:MM:SS[.f{1,6}]+00` → its Date (milliseconds truncated as pg does); anything else: pg's parser */
export function parseTimestamptz(s: string): Date | number | null {
  const n = s.length;
  if (
    n >= 22 &&
    n <= 29 &&
    s.charCodeAt(4) === 45 && // -
    s.charCodeAt(7) === 45 &&
    s.charCodeAt(10) === 32 && // space
    s.charCodeAt(13) === 58 && // :
    s.charCodeAt(16) === 58 &&
    s.charCodeAt(n - 3) === 43 && // +00
    s.charCodeAt(n - 2) === ZERO &&
    s.charCodeAt(n - 1) === ZERO
  ) {
    const year = two(s, 0) * 100 + two(s, 2);
    let ms = 0;
    let ok = year >= 100; // Date.UTC maps years 0–99 to 1900–1999: pg's parser corrects that
    if (n > 22) {
      // a fraction of 1–6 digits; its first three are the milliseconds
      ok = ok && s.charCodeAt(19) === 46 && n >= 24; // .
      for (let i = 20; i < n - 3; i++) {
        const d = digit(s, i);
        if (i < 23)
          ms = ms * 10 + d; // a non-digit makes ms, and so the time below, NaN
        else if (Number.isNaN(d)) ok = false;
      }
      for (let i = n - 3; i < 23; i++) ms *= 10; // .5 → 500, .12 → 120
    }
    const t = Date.UTC(year, two(s, 5) - 1, two(s, 8), two(s, 11), two(s, 14), two(s, 17), ms);
    if (ok && !Number.isNaN(t)) return new Date(t);
  }
  return pgTimestamptz(s);
}

export const POOL_TYPES: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ_OID && format !== 'binary'
      ? parseTimestamptz
      : types.getTypeParser(oid, format ?? 'text')) as CustomTypesConfig['getTypeParser'],
};
