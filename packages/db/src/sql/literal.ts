/**
 * THE literal formatter (docs/data-access.md "Literals"): the one audited way to put a value into SQL
 * text. Only `EXECUTE name(…)` of a prepared statement inside a multi-statement simple query needs it
 * (a simple query carries no bind parameters); everything else uses parameters ($1, …).
 *
 * Every string goes through `string()`, whose output is byte for byte that of pg's escapeLiteral
 * (quotes doubled; with a backslash, an E'' literal with backslashes doubled), with two regex replaces
 * instead of a per-character loop. Numbers must be finite, booleans and dates are formatted here, and
 * every array literal carries an explicit cast, so no value can end a literal or change its type. NUL
 * cannot travel in SQL text (nor be stored in text or jsonb): `assertNoNul` refuses it before sending.
 */
const QUOTE = /'/g;
const BACKSLASH = /\\/g;

/** A string as an SQL literal: the same output as pg's escapeLiteral. */
export function string(s: string): string {
  const quoted = `'${s.replace(QUOTE, "''")}'`;
  return s.includes('\\') ? ` E${quoted.replace(BACKSLASH, '\\\\')}` : quoted;
}

function finite(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a finite number: ${n}`);
  return String(n);
}

const iso = (d: Date): string => {
  if (Number.isNaN(d.getTime())) throw new Error('invalid date');
  return `'${d.toISOString()}'`;
};

const arrayOf =
  <T>(type: string, one: (v: T) => string) =>
  (vs: readonly T[]): string =>
    vs.length === 0 ? `'{}'::${type}[]` : `ARRAY[${vs.map(one).join(',')}]::${type}[]`;

const nullable =
  <T>(one: (v: T) => string) =>
  (v: T | null | undefined): string =>
    v === null || v === undefined ? 'NULL' : one(v);

export const literal = {
  string,
  /** a nullable text value */
  text: nullable(string),
  /** JSON.stringify of the value as a text literal (NULL for null/undefined); the parameter type casts it to jsonb */
  jsonb: nullable((v: unknown) => string(JSON.stringify(v))),
  int: (n: number): string => finite(Math.trunc(n)),
  float: finite,
  bool: (b: boolean): string => (b ? 'TRUE' : 'FALSE'),
  timestamptz: (d: Date): string => `${iso(d)}::timestamptz`,
  textArray: arrayOf<string | null>('text', nullable(string)),
  intArray: arrayOf<number>('int', (n) => finite(Math.trunc(n))),
  boolArray: arrayOf<boolean>('boolean', (b) => (b ? 'TRUE' : 'FALSE')),
  timestamptzArray: arrayOf<Date>('timestamptz', iso),
};

/** Refuses SQL text carrying a NUL character (it cannot travel in SQL text, nor be stored in text or jsonb). */
export function assertNoNul(sql: string): string {
  if (sql.includes('\u0000')) throw new Error('a value contains a NUL character');
  return sql;
}
