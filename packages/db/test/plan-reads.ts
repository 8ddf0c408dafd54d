import type { PoolClient } from 'pg';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/**
 * Runs `EXPLAIN (ANALYZE, FORMAT JSON)` of `sql` on the connection (so a statement it prepared runs on the plan it
 * cached) and returns how each executed plan node read the `tables`: [table, node type], e.g. ['events', 'Index Scan'].
 * The plan tests (fan-out-plan, advisory-lookup-plan) check these against sequential scans.
 */
export async function executedReads(
  conn: PoolClient,
  sql: string,
  tables: readonly string[],
): Promise<Array<[string, string]>> {
  const { rows } = await conn.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
  );
  const reads: Array<[string, string]> = [];
  const walk = (node: PlanNode) => {
    if (node['Actual Loops'] > 0 && tables.includes(node['Relation Name'] ?? ''))
      reads.push([node['Relation Name']!, node['Node Type']]);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(rows[0]!['QUERY PLAN'][0]!.Plan);
  return reads;
}
