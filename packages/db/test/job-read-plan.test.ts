import type { PoolClient } from 'pg';
import { createPrisma, JOB_READ_STATEMENTS, readEnrichmentJobs, type DbHandle } from '../src';
import { planReads } from './plan-reads';
import { scratchDatabase } from './scratch-database';

// docs/data-access.md "Generic plans": the enrichment job read runs on its generic plan. Left to choose, Postgres
// planned it anew on every call (docs/performance.md). A generic plan made while the tables were small, threats
// empty, must still read every table by key once they have grown: the job's asset, its orgs' observations and their
// signals, its tool baseline, and the threats listing its fingerprint or one of the CVE ids.
describe('the enrichment job read on its generic plan', () => {
  const scratch = scratchDatabase('jobreadplan');
  const { url } = scratch;
  let db: DbHandle;
  let conn: PoolClient;

  beforeAll(async () => {
    await scratch.create({ migrate: true });
    db = createPrisma({ url, applicationName: 'job-read-plan-test', max: 2 });
    conn = await db.pool.connect();
  });
  afterAll(async () => {
    conn.release();
    await db.close();
    await scratch.drop();
  });

  // n assets, each observed by 2 orgs (one signal each), one in four with 3 tool baselines; n threats, each listing one
  // asset and a CVE id
  const grow = async (from: number, n: number, threats: boolean) => {
    const to = from + n - 1;
    const q = (sql: string) => db.pool.query(sql, [from, to]);
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
    if (threats)
      await q(`INSERT INTO threats (id, livemode, created_by_org, category, title, severity, fingerprints, cve_id)
               SELECT 'thr_' || g, true, 'org_1', 'vulnerability', 'threat ' || g, 'high', ARRAY['fp:' || g],
                      'CVE-2099-' || g FROM generate_series($1::int, $2::int) g`);
  };
  const read = (fps: number[], cves: string[]) => {
    const arr = (xs: Array<string | boolean>) => `'{${xs.join(',')}}'`;
    return `EXECUTE er_read(${arr(fps.map(() => true))}, ${arr(fps.map((n) => `fp:${n}`))}, ${arr(fps.map((n) => `d${n}`))}, now() - interval '90 days', ${arr(cves)})`;
  };

  it('keeps a plan made on small tables (no threat) reading each table by key once they hold 20,000 assets', async () => {
    await grow(0, 20, false);
    await JOB_READ_STATEMENTS.prepare(conn);
    await conn.query('SET plan_cache_mode = force_generic_plan');
    try {
      await conn.query(read([3], ['CVE-2099-1'])); // the generic plan is made now
      await grow(20, 20_000, true);
      await conn.query('ANALYZE');
      const reads = await planReads(conn, read([4000, 12_000], ['CVE-2099-7', 'CVE-2099-8']), [
        'assets',
        'asset_orgs',
        'signals',
        'threats',
        'asset_tool_baselines',
      ]);
      for (const table of ['assets', 'asset_orgs', 'signals', 'threats'])
        expect(reads.map((r) => r[0])).toContain(table);
      for (const [table, node] of reads) expect(`${table}: ${node}`).not.toBe(`${table}: Seq Scan`);
      const { rows } = await conn.query<{ generic_plans: string; custom_plans: string }>(
        `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'er_read'`,
      );
      expect(rows[0]!.custom_plans).toBe('0');
    } finally {
      await conn.query('RESET plan_cache_mode');
    }
  });

  it('reads the jobs on the generic plan and returns each its observations and threats', async () => {
    const one = createPrisma({ url, applicationName: 'job-read-plan-test-one', max: 1 });
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
