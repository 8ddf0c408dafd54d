// COPY FROM STDIN's text format (https://www.postgresql.org/docs/15/sql-copy.html "Text Format"), the one encoder of
// every COPY the stores send: the scale seeder's and the bulk ingest's signals (docs/data-access.md "COPY").
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

const SPECIAL = /[\\\t\n\r]/;

/** A text value in COPY's text format: backslash, tab and line breaks escaped (callers reject NUL first). */
function copyText(s: string): string {
  // most values hold none of the four: a test is cheaper than a replace that finds nothing
  if (!SPECIAL.test(s)) return s;
  return s.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** A text[] literal: every element double-quoted, `"` and `\` escaped inside. */
function arrayLiteral(values: readonly unknown[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(',')}}`;
}

/** One column value in COPY's text format: `\N` for null; `json` columns take any JS value, JSON-encoded. */
export function copyValue(v: unknown, json = false): string {
  if (v === null || v === undefined) return '\\N';
  if (json) return copyText(JSON.stringify(v));
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return copyText(arrayLiteral(v));
  if (typeof v === 'boolean') return v ? 't' : 'f';
  return copyText(String(v));
}

/** Sends `COPY … FROM STDIN` (`sql`) on `client` with `chunks` as its data, each a run of whole lines. */
export async function copyIn(client: PoolClient, sql: string, chunks: Iterable<string>): Promise<void> {
  await pipeline(Readable.from(chunks, { objectMode: false }), client.query(copyFrom(sql)));
}
