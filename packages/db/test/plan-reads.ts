import type { PoolClient } from 'pg';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/**
 * Runs `EXPLAIN (ANALYZE, FORMAT JSON)` of `sql` on the connection (so a statement it prepared runs on the plan it
 * cached) and returns how each plan node reads the `tables`: [table, node type, times it ran], e.g.
 * ['events', 'Index Scan', 500]. The plan tests (fan-out-plan, advisory-lookup-plan) check these against sequential
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
    if (tables.includes(node['Relation Name'] ?? ''))
      reads.push([node['Relation Name']!, node['Node Type'], node['Actual Loops']]);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(rows[0]!['QUERY PLAN'][0]!.Plan);
  return reads;
}
