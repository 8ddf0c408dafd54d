import { GENERIC_PLAN_SETTINGS } from '../src/sql';
import { HISTORY_SQL, HISTORY_STATEMENT_TYPES } from '../src/stores/history-store';
import { planDatabase, planReads } from './plan-reads';

// docs/data-access.md "Generic plans": the enrichment write runs its history statement (ew_history) on the generic
// plan. Left to choose, Postgres planned it anew on every execution (docs/performance.md). A generic plan made while
// asset_history was small must still read it by the asset's index once it holds many assets' entries, or every
// enrichment would scan the whole history.
describe('the asset history statement on its generic plan', () => {
  const plan = planDatabase('histplan');

  // n assets, each with 5 history entries
  const grow = async (from: number, n: number) => {
    const to = from + n - 1;
    await plan.db.pool.query(
      `INSERT INTO assets (livemode, fingerprint, asset_type, latest_signal_id, latest_digest, first_seen, last_seen)
       SELECT true, 'fp:' || g, 'model', 'sig_' || g, 'd' || g, now(), now() FROM generate_series($1::int, $2::int) g`,
      [from, to],
    );
    await plan.db.pool.query(
      `INSERT INTO asset_history (id, livemode, fingerprint, enrichment_digest, intrinsic_risk_score,
                                  intrinsic_risk_severity, bom_version, findings, findings_added, findings_removed,
                                  findings_changed)
       SELECT 'ahi_' || g || '_' || k, true, 'fp:' || g, 'd' || k, 10 * k, 'low', k,
              jsonb_build_array(jsonb_build_object('key', 'R1', 'severity', 'low')), '[]', '[]', '[]'
         FROM generate_series($1::int, $2::int) g, generate_series(1, 5) k`,
      [from, to],
    );
  };
  // an entry for asset fp:<n> whose score changed (so it is inserted, and the oldest beyond the cap deleted)
  const history = (n: number, k: number) =>
    `EXECUTE hist('ahi_new_${n}_${k}', true, 'fp:${n}', 'dnew${k}', now(), ${50 + k}, 'medium', 6, '[{"key":"R2","severity":"medium"}]', 3)`;

  it('keeps a plan made on a small table reading asset_history by the asset, once it holds 25,000 entries', async () => {
    await grow(0, 20);
    // analysed while small (autovacuum does that to a young table): a plan made now costs a sequential scan below an
    // index probe, and only the settings of a pinned statement keep it out (GENERIC_PLAN_SETTINGS)
    await plan.db.pool.query('ANALYZE');
    await plan.conn.query(`PREPARE hist(${HISTORY_STATEMENT_TYPES.join(', ')}) AS ${HISTORY_SQL}`);
    try {
      // the generic plan is made now, on 100 entries, under the settings the enrichment write uses
      await plan.conn.query(['BEGIN', ...GENERIC_PLAN_SETTINGS, history(3, 0), 'ROLLBACK'].join(';\n'));
      await plan.conn.query('SET plan_cache_mode = force_generic_plan');
      // no ANALYZE: it would make Postgres plan again on the grown table, which is not what this test is about
      await grow(20, 5000);
      await plan.conn.query('BEGIN');
      const reads = await planReads(plan.conn, history(4000, 1), ['asset_history']);
      // the previous entry, the entries beyond the cap, and the DELETE's own scan: each by index, never a Seq Scan
      expect(reads.length).toBeGreaterThanOrEqual(2);
      for (const [, node] of reads) expect(node).not.toBe('Seq Scan');
      const kept = await plan.conn.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM asset_history WHERE livemode AND fingerprint = 'fp:4000'`,
      );
      expect(kept.rows[0]!.n).toBe(3); // 5 + 1 new, capped at 3
      await plan.conn.query('ROLLBACK');
      const { rows } = await plan.conn.query<{ generic_plans: string; custom_plans: string }>(
        `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'hist'`,
      );
      expect(rows[0]!.custom_plans).toBe('0');
    } finally {
      await plan.conn.query('RESET plan_cache_mode');
    }
  });
});
