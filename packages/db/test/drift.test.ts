import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { dropDatabase, ensureDatabase, migrate, withDatabase } from '../src';
import { readSchema } from './schema-model';

const BASE = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const ON_DELETE: Record<string, string> = { a: 'NoAction', r: 'Restrict', c: 'Cascade', n: 'SetNull', d: 'SetDefault' };

describe('migrated database matches schema.prisma', () => {
  const url = withDatabase(BASE, `risk_t_drift_${randomBytes(4).toString('hex')}`);
  let client: Client;

  beforeAll(async () => {
    await ensureDatabase(url);
    await migrate(url);
    client = new Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await dropDatabase(url);
  });

  async function actualTables() {
    const cols = await client.query<{ table_name: string; column_name: string; udt_name: string; is_nullable: string }>(
      `SELECT table_name, column_name, udt_name, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
    );
    const cons = await client.query<{ table: string; type: string; cols: string[]; ref_table: string | null; ref_cols: string[] | null; del: string }>(
      `SELECT c.conrelid::regclass::text AS table, c.contype AS type,
              ARRAY(SELECT attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY o) AS cols,
              c.confrelid::regclass::text AS ref_table,
              ARRAY(SELECT attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY o) AS ref_cols,
              c.confdeltype AS del
         FROM pg_constraint c JOIN pg_namespace ns ON ns.oid = c.connamespace
        WHERE ns.nspname = 'public' AND c.contype IN ('p', 'f') AND c.conrelid::regclass::text <> '_prisma_migrations'`,
    );
    const uniq = await client.query<{ table: string; cols: string[] }>(
      `SELECT i.indrelid::regclass::text AS table,
              ARRAY(SELECT attname::text FROM unnest(i.indkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n ORDER BY o) AS cols
         FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
        WHERE ns.nspname = 'public' AND i.indisunique AND NOT i.indisprimary`,
    );
    return { cols: cols.rows, cons: cons.rows, uniq: uniq.rows };
  }

  it('has exactly the tables and columns of the schema, with the same types and nullability', async () => {
    const schema = readSchema();
    const { cols } = await actualTables();
    const actual = new Map<string, string>();
    for (const c of cols) actual.set(`${c.table_name}.${c.column_name}`, `${c.udt_name} ${c.is_nullable === 'YES' ? 'NULL' : 'NOT NULL'}`);
    const expected = new Map<string, string>();
    for (const t of schema.values())
      for (const c of t.columns.values()) expected.set(`${t.table}.${c.name}`, `${c.udt} ${c.nullable ? 'NULL' : 'NOT NULL'}`);
    expect([...actual.entries()].sort()).toEqual([...expected.entries()].sort());
  });

  it('has the primary keys, unique constraints and foreign keys of the schema', async () => {
    const schema = readSchema();
    const { cons, uniq } = await actualTables();
    const expectedPk = [...schema.values()].map((t) => `${t.table}(${t.primaryKey.join(',')})`).sort();
    const actualPk = cons.filter((c) => c.type === 'p').map((c) => `${c.table.replace(/"/g, '')}(${c.cols.join(',')})`).sort();
    expect(actualPk).toEqual(expectedPk);

    const expectedUq = [...schema.values()].flatMap((t) => t.uniques.map((u) => `${t.table}(${u.join(',')})`)).sort();
    const actualUq = uniq.map((u) => `${u.table.replace(/"/g, '')}(${u.cols.join(',')})`).sort();
    expect(actualUq).toEqual(expectedUq);

    const expectedFk = [...schema.values()]
      .flatMap((t) => t.foreignKeys.map((f) => `${t.table}(${f.columns.join(',')})->${f.refTable}(${f.refColumns.join(',')}) ${f.onDelete}`))
      .sort();
    const actualFk = cons
      .filter((c) => c.type === 'f')
      .map((c) => `${c.table.replace(/"/g, '')}(${c.cols.join(',')})->${c.ref_table!.replace(/"/g, '')}(${c.ref_cols!.join(',')}) ${ON_DELETE[c.del]}`)
      .sort();
    expect(actualFk).toEqual(expectedFk);
  });
});
