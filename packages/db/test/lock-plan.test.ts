import { GENERIC_PLAN_SETTINGS } from '../src/sql';
import { ENRICHMENT_WRITE_STATEMENTS } from '../src/stores/enrichment-statements';
import { planDatabase, planReads } from './plan-reads';

// docs/data-access.md "Generic plans": the enrichment write's lock reads (ew_lock_fp, ew_lock_cve) run pinned to their
// generic plan, made without sequential scans. Left to itself, Postgres settled on a generic plan after five
// executions, cached per connection, maybe made while the tables were small and just analysed: it then read the
// asset's tool baselines by scanning the whole table on every write, until the next ANALYZE.
describe('the enrichment lock read', () => {
  const plan = planDatabase('lockplan');

  // n assets, each with 3 tool baselines
  const grow = async (from: number, n: number) => {
    const q = (sql: string) => plan.db.pool.query(sql, [from, from + n - 1]);
    await q(`INSERT INTO assets (livemode, fingerprint, asset_type, latest_signal_id, latest_digest, first_seen, last_seen)
             SELECT true, 'fp:' || g, 'mcp_server', 'sig_' || g, 'd' || g, now(), now() FROM generate_series($1::int, $2::int) g`);
    await q(`INSERT INTO asset_tool_baselines (livemode, fingerprint, name, definition_hash, description_hash, schema_hash,
                                               description, original, current_hash)
             SELECT true, 'fp:' || g, 'tool_' || k, 'h', 'h', 'h', 'a tool', true, CASE WHEN k < 3 THEN 'h' || k END
               FROM generate_series($1::int, $2::int) g, generate_series(1, 3) k`);
  };
  const lock = (n: number) => `EXECUTE ew_lock_fp(true, 'mcp_server', 'fp:${n}', 'c', 'c', true, 'fp:${n}')`;

  it('keeps a plan made on small, just analysed tables reading every table by key once they hold 60,000 baselines', async () => {
    await grow(0, 20);
    await plan.db.pool.query('ANALYZE');
    await ENRICHMENT_WRITE_STATEMENTS.prepare(plan.conn);
    // the generic plans are made now, on 20 assets and 60 baselines, under the settings the write's locks run with
    await plan.conn.query(['BEGIN', ...GENERIC_PLAN_SETTINGS, lock(3), 'ROLLBACK'].join(';\n'));
    await plan.conn.query('SET plan_cache_mode = force_generic_plan');
    try {
      await grow(20, 20_000);
      await plan.conn.query('BEGIN');
      const reads = await planReads(plan.conn, lock(4000), ['asset_tool_baselines', 'assets', 'findings', 'aiboms']);
      const row = await plan.conn.query(lock(4000));
      await plan.conn.query('ROLLBACK');
      expect(reads.length).toBeGreaterThan(0);
      for (const [table, node] of reads) expect(`${table}: ${node}`).not.toBe(`${table}: Seq Scan`);
      expect(row.rows[0]).toMatchObject({ prev_tools: { tool_1: 'h1', tool_2: 'h2' }, has_tool_baseline: true });
    } finally {
      await plan.conn.query('RESET plan_cache_mode');
    }
  });
});
