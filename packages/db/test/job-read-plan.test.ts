import { createPrisma, readEnrichmentJobs } from '../src';
import { GENERIC_PLAN_SETTINGS } from '../src/sql';
import { JOB_READ_STATEMENTS } from '../src/stores/enrichment-reads';
import { planDatabase, planReads } from './plan-reads';

// docs/data-access.md "Generic plans": the enrichment job read runs on its generic plan. Left to choose, Postgres
// planned it anew on every call (docs/performance.md). A generic plan made while the tables were small and just
// analysed, threats empty, must still read every table by key once they have grown: the job's asset, its orgs'
// observations and their signals, its tool baseline, its recorded packages, and the threats listing its fingerprint or
// one of the CVE ids.
describe('the enrichment job read on its generic plan', () => {
  const plan = planDatabase('jobreadplan');

  // n assets, each observed by 2 orgs (one signal each), one in four with 3 tool baselines; with `threats`, n threats,
  // each listing one asset and a CVE id
  const grow = async (from: number, n: number, threats: boolean) => {
    const q = (sql: string) => plan.db.pool.query(sql, [from, from + n - 1]);
    await q(`INSERT INTO assets (livemode, fingerprint, asset_type, latest_signal_id, latest_digest, first_seen, last_seen)
             SELECT true, 'fp:' || g, 'model', 'sig_' || g || '_1', 'd' || g, now(), now()
               FROM generate_series($1::int, $2::int) g`);
    await q(`INSERT INTO signals (id, org_id, livemode, fingerprint, asset_type, observed_at, content_digest, raw_manifest)
             SELECT 'sig_' || g || '_' || k, 'org_' || k, true, 'fp:' || g, 'model', now(), 'c' || g || k, 'card ' || g
               FROM generate_series($1::int, $2::int) g, generate_series(1, 2) k`);
    await q(`INSERT INTO asset_orgs (livemode, fingerprint, org_id, latest_signal_id, latest_digest)
             SELECT true, 'fp:' || g, 'org_' || k, 'sig_' || g || '_' || k, 'o' || g || k
               FROM generate_series($1::int, $2::int) g, generate_series(1, 2) k`);
    await q(`INSERT INTO asset_tool_baselines (livemode, fingerprint, name, definition_hash, description_hash, schema_hash,
                                               description, original)
             SELECT true, 'fp:' || g, 'tool_' || k, 'h', 'h', 'h', 'a tool', true
               FROM generate_series($1::int, $2::int) g, generate_series(1, 3) k WHERE g % 4 = 0`);
    await q(`INSERT INTO asset_packages (livemode, fingerprint, ecosystem, name)
             SELECT true, 'fp:' || g, 'pypi', 'lib-' || k FROM generate_series($1::int, $2::int) g, generate_series(1, 2) k
              WHERE g % 2 = 0`);
    if (threats)
      await q(`INSERT INTO threats (id, livemode, created_by_org, category, title, severity, fingerprints, cve_id)
               SELECT 'thr_' || g, true, 'org_1', 'vulnerability', 'threat ' || g, 'high', ARRAY['fp:' || g],
                      'CVE-2099-' || g FROM generate_series($1::int, $2::int) g`);
  };
  const read = (fps: number[], cves: string[]) => {
    const arr = (xs: Array<string | boolean>) => `'{${xs.join(',')}}'`;
    return `EXECUTE er_read(${arr(fps.map(() => true))}, ${arr(fps.map((n) => `fp:${n}`))}, ${arr(fps.map((n) => `d${n}`))}, now() - interval '90 days', ${arr(cves)})`;
  };

  it('keeps a plan made on small, just analysed tables reading each table by key once they hold 20,000 assets', async () => {
    await grow(0, 20, false);
    // analysed while small (autovacuum does that to a young table): a plan made now costs sequential scans below index
    // probes, and only the settings of a pinned statement keep them out (GENERIC_PLAN_SETTINGS)
    await plan.db.pool.query('ANALYZE');
    await JOB_READ_STATEMENTS.prepare(plan.conn);
    // the generic plan is made now, under the settings the job read runs with
    await plan.conn.query(['BEGIN', ...GENERIC_PLAN_SETTINGS, read([3], ['CVE-2099-1']), 'COMMIT'].join(';\n'));
    await plan.conn.query('SET plan_cache_mode = force_generic_plan');
    try {
      // no ANALYZE: it would make Postgres plan again on the grown tables, which is not what this test is about
      await grow(20, 20_000, true);
      const reads = await planReads(plan.conn, read([4000, 12_000], ['CVE-2099-7', 'CVE-2099-8']), [
        'assets',
        'asset_orgs',
        'signals',
        'threats',
        'asset_tool_baselines',
        'asset_packages',
      ]);
      for (const table of ['assets', 'asset_orgs', 'signals', 'threats', 'asset_tool_baselines', 'asset_packages'])
        expect(reads.map((r) => r[0])).toContain(table);
      for (const [table, node] of reads) expect(`${table}: ${node}`).not.toBe(`${table}: Seq Scan`);
      const { rows } = await plan.conn.query<{ generic_plans: string; custom_plans: string }>(
        `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'er_read'`,
      );
      expect(rows[0]!.custom_plans).toBe('0');
    } finally {
      await plan.conn.query('RESET plan_cache_mode');
    }
  });

  it('reads the jobs on the generic plan and returns each its observations and threats', async () => {
    const one = createPrisma({ url: plan.url, applicationName: 'job-read-plan-test-one', max: 1 });
    try {
      for (let k = 0; k < 7; k++) {
        const n = 100 + 2 * k;
        const jobs = [n, n + 1].map((m) => ({ livemode: true, fingerprint: `fp:${m}`, digest: `d${m}` }));
        const out = await readEnrichmentJobs(one.pool, jobs, {
          observedSince: new Date(Date.now() - 86_400_000),
          cveIds: [`CVE-2099-${n + 1}`],
        });
        expect(out.map((r) => r?.observations?.length)).toEqual([2, 2]);
        // the threat listing each fingerprint, and the one whose CVE id is asked for (a candidate of both jobs)
        expect(out.map((r) => r?.candidates?.threats.map((t) => [t.id, t.by_fingerprint]))).toEqual([
          [
            [`thr_${n}`, true],
            [`thr_${n + 1}`, false],
          ],
          [[`thr_${n + 1}`, true]],
        ]);
        expect(out.map((r) => r?.first_seen instanceof Date)).toEqual([true, true]);
        // packages recorded for the even assets only
        expect(out.map((r) => r?.has_packages)).toEqual([true, false]);
      }
      const { rows } = await one.pool.query<{ generic_plans: string; custom_plans: string }>(
        `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'er_read'`,
      );
      expect(rows).toEqual([{ generic_plans: '7', custom_plans: '0' }]);
    } finally {
      await one.close();
    }
  });
});
