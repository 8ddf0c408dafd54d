import { createPrisma, readCandidateAdvisories } from '../src';
import { GENERIC_PLAN_SETTINGS } from '../src/sql';
import { CANDIDATE_ADVISORIES_SQL } from '../src/stores/advisories-store';
import { planDatabase, planReads } from './plan-reads';

// docs/performance.md "The advisory look-up's cached plan": the worker runs the look-up as a named statement, so
// Postgres may keep a generic plan made without the arrays' sizes while the tables were small. That plan must still
// read asset_packages, advisory_packages and advisories by key, or every later look-up scans all three tables, and
// asset_packages grows with every asset. The DELETE of dropped packages runs only when a package was dropped.
describe('the enrichment advisory look-up statement', () => {
  const plan = planDatabase('advplan');
  const { url } = plan;

  // n assets, each recorded with 4 packages; n advisories, each for 1 package
  const grow = async (from: number, n: number) => {
    const to = from + n - 1;
    await plan.db.pool.query(
      `INSERT INTO assets (livemode, fingerprint, asset_type, latest_signal_id, latest_digest, first_seen, last_seen)
       SELECT true, 'fp:' || g, 'package', 'sig_' || g, 'd' || g, now(), now() FROM generate_series($1::int, $2::int) g`,
      [from, to],
    );
    await plan.db.pool.query(
      `INSERT INTO asset_packages (livemode, fingerprint, ecosystem, name)
       SELECT true, 'fp:' || g, 'pypi', 'pkg-' || g || '-' || k FROM generate_series($1::int, $2::int) g, generate_series(1, 4) k`,
      [from, to],
    );
    await plan.db.pool.query(
      `INSERT INTO advisories (id, source, summary, modified, osv, content_hash)
       SELECT 'ADV-' || g, 'test', 'advisory ' || g, now(), jsonb_build_object('id', 'ADV-' || g), 'h' || g
         FROM generate_series($1::int, $2::int) g`,
      [from, to],
    );
    await plan.db.pool.query(
      `INSERT INTO advisory_packages (ecosystem, name, advisory_id)
       SELECT 'pypi', 'pkg-' || g || '-1', 'ADV-' || g FROM generate_series($1::int, $2::int) g`,
      [from, to],
    );
  };
  // job i of the look-up: asset fp:<n> with the packages `names(n)` (by default its four, unchanged)
  const lookup = (fps: number[], names = (n: number) => [1, 2, 3, 4].map((k) => `pkg-${n}-${k}`)) => {
    const keys = fps.flatMap((n, i) => names(n).map((name) => ({ i: i + 1, name })));
    const arr = (xs: Array<string | number | boolean>) => `'{${xs.join(',')}}'`;
    return `EXECUTE adv(${arr(fps.map(() => true))}, ${arr(fps.map((n) => `fp:${n}`))}, ${arr(keys.map((k) => k.i))}, ${arr(keys.map(() => 'pypi'))}, ${arr(keys.map((k) => k.name))})`;
  };

  it('keeps a plan made on small tables reading each table by key once they have grown, and replaces changed packages', async () => {
    await grow(0, 20);
    // analysed while small (autovacuum does that to a young table): a plan made now costs a sequential scan below an
    // index probe, and only the settings of a pinned statement keep it out (GENERIC_PLAN_SETTINGS)
    await plan.db.pool.query('ANALYZE');
    await plan.conn.query(`PREPARE adv(boolean[], text[], int[], text[], text[]) AS ${CANDIDATE_ADVISORIES_SQL}`);
    // the generic plan is made now, on 20 assets, under the settings runGeneric uses, and cached for the connection
    await plan.conn.query(['BEGIN', ...GENERIC_PLAN_SETTINGS, lookup([1, 2]), 'COMMIT'].join(';\n'));
    await plan.conn.query('SET plan_cache_mode = force_generic_plan');
    // no ANALYZE after growing: it would make Postgres plan again, which is not what this test is about
    await grow(20, 20_000);

    // unchanged packages, as for nearly every job: every executed read of the three tables goes by key
    // the reads that ran (the DELETE's scan sits behind its one-time filter and does not run when nothing is dropped)
    const reads = (
      await planReads(plan.conn, lookup([19_000, 19_001, 19_002]), [
        'asset_packages',
        'advisory_packages',
        'advisories',
      ])
    ).filter(([, , loops]) => loops > 0);
    for (const table of ['asset_packages', 'advisory_packages', 'advisories'])
      expect(reads.some(([r]) => r === table)).toBe(true);
    expect(reads.filter(([, type]) => type === 'Seq Scan')).toEqual([]);

    // the advisories of each job's packages, in job order
    const out = await plan.conn.query<{ i: string; osv: { id: string } }>(lookup([5, 6]));
    expect(out.rows.map((r) => [Number(r.i), r.osv.id])).toEqual([
      [1, 'ADV-5'],
      [2, 'ADV-6'],
    ]);

    // changed packages: each asset of the batch then holds exactly its job's, the others keep theirs
    await plan.conn.query(lookup([19_010, 19_011], (n) => [`pkg-${n}-1`, `new-${n}`]));
    const held = await plan.db.pool.query<{ fingerprint: string; names: string[] }>(
      `SELECT fingerprint, array_agg(name ORDER BY name) AS names FROM asset_packages
        WHERE livemode AND fingerprint = ANY($1) GROUP BY fingerprint ORDER BY fingerprint`,
      [['fp:19010', 'fp:19011', 'fp:19012']],
    );
    expect(held.rows).toEqual([
      { fingerprint: 'fp:19010', names: ['new-19010', 'pkg-19010-1'] },
      { fingerprint: 'fp:19011', names: ['new-19011', 'pkg-19011-1'] },
      { fingerprint: 'fp:19012', names: ['pkg-19012-1', 'pkg-19012-2', 'pkg-19012-3', 'pkg-19012-4'] },
    ]);
  });

  it('runs the generic plan on every call, never planning it anew (readCandidateAdvisories)', async () => {
    // one connection, so every call runs on the connection whose prepared statements are counted below
    const one = createPrisma({ url, applicationName: 'advisory-plan-test-one', max: 1 });
    try {
      for (let k = 0; k < 7; k++) {
        const n = 100 + 2 * k;
        const lookups = [n, n + 1].slice(0, 1 + (k % 2)).map((m) => ({
          livemode: true,
          fingerprint: `fp:${m}`,
          packages: [1, 2, 3, 4].map((j) => ({ ecosystem: 'pypi', name: `pkg-${m}-${j}` })),
        }));
        const found = await readCandidateAdvisories(one.pool, lookups);
        expect(found.map((osvs) => osvs.map((o) => (o as { id: string }).id))).toEqual(
          lookups.map((l) => [`ADV-${l.fingerprint.slice(3)}`]),
        );
      }
      const { rows } = await one.pool.query<{ generic_plans: string; custom_plans: string }>(
        `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'ea_lookup'`,
      );
      expect(rows).toEqual([{ generic_plans: '7', custom_plans: '0' }]);
    } finally {
      await one.close();
    }
  });
});
