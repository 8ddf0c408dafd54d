import { ASSETS_FOR_ORG_SQL, BY_KEYS_SQL } from '../src/stores/assets-store';
import { planDatabase, planReads } from './plan-reads';

// docs/performance.md "The 500-key look-up": the batched asset reads join the org's asset_orgs row on the read key's
// own mode and fingerprint, so asset_orgs' primary key serves it whatever the statistics. Joined on the asset's
// columns, a plan made before the first ANALYZE (a new org's first minutes, every benchmark) read the org's whole
// org_id index once per key: 10–20 ms for 500 keys, growing with the org's assets.
describe('the batched asset reads', () => {
  const plan = planDatabase('assetread');
  const ORG = 'org_plan';
  const N = 500;
  const fps = Array.from({ length: N }, (_, i) => `plan:${i}`);
  const arr = (values: readonly string[]) => `'{${values.map((v) => `"${v}"`).join(',')}}'`;

  beforeAll(async () => {
    // no ANALYZE: the tables' statistics are those of empty tables, as in a fresh deployment
    await plan.db.pool.query(
      `INSERT INTO assets (livemode, fingerprint, asset_type, enrichment_status, latest_signal_id, latest_digest, signal_count,
                           first_seen, last_seen, created, updated)
       SELECT true, 'plan:' || g, 'package', 'pending', 'sig_' || g, 'd', 1, now(), now(), now(), now()
         FROM generate_series(0, $1::int - 1) g`,
      [N],
    );
    await plan.db.pool.query(
      `INSERT INTO asset_orgs (livemode, fingerprint, org_id, signal_count, first_seen, last_seen, latest_signal_id, latest_digest)
       SELECT true, 'plan:' || g, $2, 1, now(), now(), 'sig_' || g, 'd' FROM generate_series(0, $1::int - 1) g`,
      [N, ORG],
    );
  });

  // how each plan node reads assets and asset_orgs: both must be read, each by an index
  const assetOrgReads = async (sql: string) => {
    const reads = await planReads(plan.conn, sql, ['assets', 'asset_orgs']);
    expect(new Set(reads.map(([table]) => table))).toEqual(new Set(['assets', 'asset_orgs']));
    return reads.map(([table, type]) => `${table}: ${type}`);
  };
  const byIndex = (read: string) => /: Index (Only )?Scan$/.test(read);

  it("the look-up's read probes asset_orgs by primary key for every key", async () => {
    await plan.conn.query(`PREPARE by_org(text[], boolean, text) AS ${ASSETS_FOR_ORG_SQL}`);
    const types = await assetOrgReads(`EXECUTE by_org(${arr(fps)}, true, '${ORG}')`);
    expect(types.filter((t) => !byIndex(t))).toEqual([]);
  });

  it("GET's batched read does too", async () => {
    await plan.conn.query(`PREPARE by_keys(boolean[], text[], text[], timestamptz) AS ${BY_KEYS_SQL}`);
    const some = fps.slice(0, 8);
    const types = await assetOrgReads(
      `EXECUTE by_keys('{${some.map(() => 't').join(',')}}', ${arr(some)}, ${arr(some.map(() => ORG))}, now())`,
    );
    expect(types.filter((t) => !byIndex(t))).toEqual([]);
  });
});
