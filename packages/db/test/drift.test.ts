import { Client } from 'pg';
import { scratchDatabase } from './scratch-database';
import { readSchema } from './schema-model';

const ON_DELETE: Record<string, string> = { a: 'NoAction', r: 'Restrict', c: 'Cascade', n: 'SetNull', d: 'SetDefault' };

describe('migrated database matches schema.prisma', () => {
  const scratch = scratchDatabase('drift');
  const { url } = scratch;
  let client: Client;

  beforeAll(async () => {
    await scratch.create({ migrate: true });
    client = new Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await scratch.drop();
  });

  // The monthly partitions of signals and events (docs/scaling.md) are the schema's tables' storage, not tables of
  // their own: their columns, keys and indexes are the parent's, so only the parents are compared.
  async function actualTables() {
    const cols = await client.query<{ table_name: string; column_name: string; udt_name: string; is_nullable: string }>(
      `SELECT table_name, column_name, udt_name, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
          AND table_name NOT IN (SELECT relname FROM pg_class WHERE relispartition)`,
    );
    const cons = await client.query<{
      table: string;
      type: string;
      cols: string[];
      ref_table: string | null;
      ref_cols: string[] | null;
      del: string;
    }>(
      `SELECT c.conrelid::regclass::text AS table, c.contype AS type,
              ARRAY(SELECT attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY o) AS cols,
              c.confrelid::regclass::text AS ref_table,
              ARRAY(SELECT attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY o) AS ref_cols,
              c.confdeltype AS del
         FROM pg_constraint c JOIN pg_namespace ns ON ns.oid = c.connamespace
        WHERE ns.nspname = 'public' AND c.contype IN ('p', 'f') AND c.conrelid::regclass::text <> '_prisma_migrations'
          AND NOT (SELECT relispartition FROM pg_class WHERE oid = c.conrelid)`,
    );
    const uniq = await client.query<{ table: string; cols: string[] }>(
      `SELECT i.indrelid::regclass::text AS table,
              ARRAY(SELECT attname::text FROM unnest(i.indkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n ORDER BY o) AS cols
         FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
        WHERE ns.nspname = 'public' AND i.indisunique AND NOT i.indisprimary AND NOT t.relispartition`,
    );
    const idx = await client.query<{ table: string; cols: string[]; method: string }>(
      `SELECT i.indrelid::regclass::text AS table, am.amname AS method,
              ARRAY(SELECT a.attname::text || CASE WHEN i.indoption[k.o - 1] & 1 = 1 THEN ' DESC' ELSE '' END
                      FROM unnest(i.indkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n
                     ORDER BY k.o) AS cols
         FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_am am ON am.oid = ic.relam
         JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
        WHERE ns.nspname = 'public' AND NOT i.indisunique AND NOT i.indisprimary AND NOT t.relispartition`,
    );
    return { cols: cols.rows, cons: cons.rows, uniq: uniq.rows, idx: idx.rows };
  }

  it('has exactly the tables and columns of the schema, with the same types and nullability', async () => {
    const schema = readSchema();
    const { cols } = await actualTables();
    const actual = new Map<string, string>();
    for (const c of cols)
      actual.set(`${c.table_name}.${c.column_name}`, `${c.udt_name} ${c.is_nullable === 'YES' ? 'NULL' : 'NOT NULL'}`);
    const expected = new Map<string, string>();
    for (const t of schema.values())
      for (const c of t.columns.values())
        expected.set(`${t.table}.${c.name}`, `${c.udt} ${c.nullable ? 'NULL' : 'NOT NULL'}`);
    // named differences, so a failure says what to do rather than showing two long lists
    expect({
      'in schema.prisma but not in the migrated database (add a migration)': [...expected]
        .filter(([k]) => !actual.has(k))
        .map(([k, v]) => `${k} ${v}`),
      'in the migrated database but not in schema.prisma': [...actual]
        .filter(([k]) => !expected.has(k))
        .map(([k, v]) => `${k} ${v}`),
      'type or nullability differs': [...expected]
        .filter(([k, v]) => actual.has(k) && actual.get(k) !== v)
        .map(([k, v]) => `${k}: schema.prisma ${v}, database ${actual.get(k)}`),
    }).toEqual({
      'in schema.prisma but not in the migrated database (add a migration)': [],
      'in the migrated database but not in schema.prisma': [],
      'type or nullability differs': [],
    });
  });

  it('has the indexes of the schema (columns, sort order, method), for every list filter and cursor', async () => {
    const schema = readSchema();
    const { idx } = await actualTables();
    const expected = [...schema.values()]
      .flatMap((t) => t.indexes.map((i) => `${t.table}(${i.columns.join(', ')}) ${i.method}`))
      .sort();
    const actual = idx.map((i) => `${i.table.replace(/"/g, '')}(${i.cols.join(', ')}) ${i.method}`).sort();
    expect(actual).toEqual(expected);
  });

  it('has the primary keys, unique constraints and foreign keys of the schema', async () => {
    const schema = readSchema();
    const { cons, uniq } = await actualTables();
    const expectedPk = [...schema.values()].map((t) => `${t.table}(${t.primaryKey.join(',')})`).sort();
    const actualPk = cons
      .filter((c) => c.type === 'p')
      .map((c) => `${c.table.replace(/"/g, '')}(${c.cols.join(',')})`)
      .sort();
    expect(actualPk).toEqual(expectedPk);

    const expectedUq = [...schema.values()].flatMap((t) => t.uniques.map((u) => `${t.table}(${u.join(',')})`)).sort();
    const actualUq = uniq.map((u) => `${u.table.replace(/"/g, '')}(${u.cols.join(',')})`).sort();
    expect(actualUq).toEqual(expectedUq);

    const expectedFk = [...schema.values()]
      .flatMap((t) =>
        t.foreignKeys.map(
          (f) => `${t.table}(${f.columns.join(',')})->${f.refTable}(${f.refColumns.join(',')}) ${f.onDelete}`,
        ),
      )
      .sort();
    const actualFk = cons
      .filter((c) => c.type === 'f')
      .map(
        (c) =>
          `${c.table.replace(/"/g, '')}(${c.cols.join(',')})->${c.ref_table!.replace(/"/g, '')}(${c.ref_cols!.join(',')}) ${ON_DELETE[c.del]}`,
      )
      .sort();
    expect(actualFk).toEqual(expectedFk);
  });
});
