import { FAN_OUT_EVENTS_SQL } from '../src/stores/events-store';
import { planDatabase, planReads } from './plan-reads';

// docs/performance.md "The fan-out's cached plan": the fan-out runs as a prepared statement (ri_fanout, ew_fanout)
// whose generic plan is made once per connection, often while the events table is still small. That plan must
// read the events by primary key, or every later fan-out scans the whole table.
describe('the fan-out statement', () => {
  const plan = planDatabase('fanout');

  const insertEvents = (from: number, count: number) =>
    plan.db.pool.query(
      `INSERT INTO events (id, type, livemode, org_id, fingerprint, data)
       SELECT 'evt_' || g, 'asset.created', true, NULL, 'fp:' || g, '{}'::jsonb FROM generate_series($1::int, $2::int) g`,
      [from, from + count - 1],
    );
  const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => `evt_${from + i}`);

  it('keeps a plan made on a small table reading events by primary key once the table has grown', async () => {
    await insertEvents(0, 50);
    await plan.conn.query(`PREPARE fanout(text[]) AS ${FAN_OUT_EVENTS_SQL}`);
    // the generic plan is made now, on 50 events, and cached for the connection
    await plan.conn.query('SET plan_cache_mode = force_generic_plan');
    await plan.conn.query(`EXECUTE fanout('{${ids(0, 10).join(',')}}')`);
    await insertEvents(50, 20_000);
    // every plan node that reads the events table, by its node type
    const eventReads = (
      await planReads(plan.conn, `EXECUTE fanout('{${ids(19_500, 500).join(',')}}')`, ['events'])
    ).map(([, type]) => type);
    expect(eventReads.length).toBeGreaterThan(0);
    expect(eventReads.every((t) => t === 'Index Scan' || t === 'Index Only Scan')).toBe(true);
  });
});
