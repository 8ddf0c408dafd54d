import type { PoolClient } from 'pg';
import { createPrisma, type DbHandle } from '../src';
import { scratchDatabase } from './scratch-database';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/**
 * Runs `EXPLAIN (ANALYZE, FORMAT JSON)` of `sql` on the connection (so a statement it prepared runs on the plan it
 * cached) and returns how each plan node reads the `tables`: [table, node type, times it ran], e.g.
 * ['events', 'Index Scan', 500], a partition's reads under its table's name. The plan tests (fan-out-plan, advisory-lookup-plan) check these against sequential
 * scans.
 */
export async function planReads(
  conn: PoolClient,
  sql: string,
  tables: readonly string[],
): Promise<Array<[string, string, number]>> {
  const { rows } = await conn.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
  );
  const reads: Array<[string, string, number]> = [];
  const walk = (node: PlanNode) => {
    // a month partition (signals_y2026m11) or the DEFAULT partition (events_default) reads its parent table
    const table = (node['Relation Name'] ?? '').replace(/_(y\d{4}m\d{2}|default)$/, '');
    if (tables.includes(table)) reads.push([table, node['Node Type'], node['Actual Loops']]);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(rows[0]!['QUERY PLAN'][0]!.Plan);
  return reads;
}

/**
 * A plan test's database: a migrated scratch database, a pool on it and one connection held for the whole suite
 * (its prepared statements and cached plans are what the test checks), set up before all tests and dropped after.
 */
export function planDatabase(name: string): { url: string; readonly db: DbHandle; readonly conn: PoolClient } {
  const scratch = scratchDatabase(name);
  let db: DbHandle | undefined;
  let conn: PoolClient | undefined;
  beforeAll(async () => {
    await scratch.create({ migrate: true });
    db = createPrisma({ url: scratch.url, applicationName: `${name}-plan-test`, max: 2 });
    conn = await db.pool.connect();
  });
  afterAll(async () => {
    conn?.release();
    await db?.close();
    await scratch.drop();
  });
  return {
    url: scratch.url,
    get db() {
      return db!;
    },
    get conn() {
      return conn!;
    },
  };
}
