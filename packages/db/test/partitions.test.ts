import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createPrisma,
  defaultPartitionRows,
  dropExpiredMonths,
  ensureMonthPartitions,
  ID_PREFIXES,
  migrate,
  MIGRATIONS_DIR,
  newId,
  readEventFor,
  readSignalFor,
  Prisma,
  type DbHandle,
} from '../src';
import { idWhere, monthStart, rowByIdSql } from '../src/stores/partitions-store';
import { scratchDatabase } from './scratch-database';

// docs/scaling.md "Monthly partitions for signals and events": the migration that partitions signals and events keeps
// every row and id, a look-up by id reads the one partition its id names, and maintenance creates months ahead, drains
// the DEFAULT partition and drops whole months past retention.

const PARTITIONING = '20261129170000_time_partitions';
const DAY = 86_400_000;
const now = new Date();
/** the middle of the month `add` months from now, so a row's month is unambiguous */
const midMonth = (add: number) => new Date(monthStart(now, add).getTime() + 14 * DAY);
const partitionOf = (table: string, t: Date) =>
  `${table}_y${t.getUTCFullYear()}m${String(t.getUTCMonth() + 1).padStart(2, '0')}`;

// Mid-month times, so an hour either side of each stays in its month. Ids carry their creation time, and newId never
// goes back in time within a process: mint oldest first.
const times = [midMonth(-5), midMonth(-3), midMonth(-1), midMonth(0)];
const minted = times.map((t) => [newId(ID_PREFIXES.signal, t.getTime()), newId(ID_PREFIXES.event, t.getTime())]);
const signalIds = minted.map(([s]) => s!);
const eventIds = minted.map(([, e]) => e!);

interface PlanNode {
  'Relation Name'?: string;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/** The relations a statement read (plan nodes that ran at least once), or with `planned` every one its plan names. */
async function relationsRead(db: DbHandle, sql: string, values: unknown[], planned = false): Promise<string[]> {
  const { rows } = await db.pool.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
    values,
  );
  const read = new Set<string>();
  const walk = (node: PlanNode) => {
    if (node['Relation Name'] && (planned || node['Actual Loops'] > 0)) read.add(node['Relation Name']);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(rows[0]!['QUERY PLAN'][0]!.Plan);
  return [...read].sort();
}

describe('monthly partitions of signals and events', () => {
  const scratch = scratchDatabase('partitions');
  let db: DbHandle;
  let before: Record<string, unknown[]>;

  beforeAll(async () => {
    // the database as it was before the partitioning migration, with rows of several months in it
    await scratch.create();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mig-before-partitions-'));
    for (const name of fs.readdirSync(MIGRATIONS_DIR))
      if (name < PARTITIONING && fs.statSync(path.join(MIGRATIONS_DIR, name)).isDirectory())
        fs.cpSync(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
    await migrate(scratch.url, { dir });
    fs.rmSync(dir, { recursive: true, force: true });
    db = createPrisma({ url: scratch.url, applicationName: 'partitions-test', max: 3 });
    await db.pool.query(
      `INSERT INTO signals (id, org_id, livemode, fingerprint, asset_type, observed_at, name, raw_manifest, metadata,
                            content_digest, created)
       SELECT id, 'org_p', true, 'fp-' || n, 'mcp_server', created, 'n' || n, '{"n":' || n || '}', jsonb_build_object('n', n),
              'digest-' || n, created
         FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS t(id, created, n)`,
      [signalIds, times],
    );
    await db.pool.query(
      `INSERT INTO events (id, type, livemode, org_id, fingerprint, data, created)
       SELECT id, 'threat.created', true, NULL, NULL, jsonb_build_object('n', n), created
         FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS t(id, created, n)`,
      [eventIds, times],
    );
    await db.pool.query(
      `INSERT INTO webhook_endpoints (id, org_id, livemode, url, events, secret_ciphertext)
       VALUES ('we_p', 'org_p', true, 'https://example.com/hook', ARRAY['*'], 'x')`,
    );
    await db.pool.query(
      `INSERT INTO webhook_deliveries (id, event_id, endpoint_id) SELECT 'whd_' || id, id, 'we_p' FROM unnest($1::text[]) id`,
      [eventIds],
    );
    before = {
      signals: (await db.pool.query('SELECT * FROM signals ORDER BY id')).rows,
      events: (await db.pool.query('SELECT * FROM events ORDER BY id')).rows,
    };
    await migrate(scratch.url);
  });
  afterAll(async () => {
    await db?.close();
    await scratch.drop();
  });

  it('keeps every row and id, each in the partition of its month, and fills the deliveries from their events', async () => {
    expect((await db.pool.query('SELECT * FROM signals ORDER BY id')).rows).toEqual(before.signals);
    expect((await db.pool.query('SELECT * FROM events ORDER BY id')).rows).toEqual(before.events);
    const { rows: placed } = await db.pool.query<{ id: string; part: string }>(
      `SELECT id, tableoid::regclass::text AS part FROM signals UNION ALL SELECT id, tableoid::regclass::text FROM events`,
    );
    const where = new Map(placed.map((r) => [r.id, r.part]));
    times.forEach((t, i) => {
      expect(where.get(signalIds[i]!)).toBe(partitionOf('signals', t));
      expect(where.get(eventIds[i]!)).toBe(partitionOf('events', t));
    });
    const { rows: deliveries } = await db.pool.query<{ event_id: string; event_created: Date; event_type: string }>(
      'SELECT event_id, event_created, event_type FROM webhook_deliveries ORDER BY event_id',
    );
    expect(deliveries).toEqual(
      eventIds.map((id, i) => ({ event_id: id, event_created: times[i], event_type: 'threat.created' })),
    );
    // the months ahead exist already, and nothing went to the DEFAULT partitions
    const { rows: parts } = await db.pool.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'signals'::regclass`,
    );
    for (let add = 0; add <= 3; add++)
      expect(parts.map((p) => p.name)).toContain(partitionOf('signals', midMonth(add)));
    expect(await defaultPartitionRows(db.pool)).toEqual({ signals: 0, events: 0 });
  });

  it('finds signals and events by id across months, and only the reader’s signals', async () => {
    for (const [i, id] of signalIds.entries()) {
      const row = await readSignalFor(db.prisma, { id, orgId: 'org_p', livemode: true });
      expect(row).toMatchObject({ id, name: `n${i + 1}`, created: times[i] });
      expect(await readSignalFor(db.prisma, { id, orgId: 'org_other', livemode: true })).toBeUndefined();
    }
    for (const [i, id] of eventIds.entries()) {
      const row = await readEventFor(db.prisma, {
        reader: { org_id: 'org_p', livemode: true },
        id,
        retentionDays: 400,
      });
      expect(row).toMatchObject({ id, data: { n: i + 1 } });
    }
    // the events route keeps its 30 days: an older event is not found by id either
    expect(
      await readEventFor(db.prisma, {
        reader: { org_id: 'org_p', livemode: true },
        id: eventIds[0]!,
        retentionDays: 30,
      }),
    ).toBeUndefined();
    expect(await readSignalFor(db.prisma, { id: 'sig_unknown', orgId: 'org_p', livemode: true })).toBeUndefined();
  });

  it('decodes the time an id carries, inlined into the statement that uses it', async () => {
    const { rows } = await db.pool.query<{ t: Date }>(
      'SELECT risk_id_time(id, 0) AS t FROM unnest($1::text[]) WITH ORDINALITY AS u(id, n) ORDER BY n',
      [signalIds],
    );
    expect(rows.map((r) => r.t)).toEqual(times);
    // a call per row of a function would cost about ten times the inlined expression
    const { rows: plan } = await db.pool.query<{ 'QUERY PLAN': string }>(
      'EXPLAIN VERBOSE SELECT risk_id_time(id, 0) FROM signals',
    );
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).not.toContain('risk_id_time(');
  });

  it('has no store statement that joins signals or events on the id alone', () => {
    // such a join probes every month's index; rowByIdSql reads the month the id names
    const dir = path.join(__dirname, '..', 'src', 'stores');
    const found = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        [
          ...fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/JOIN\s+(signals|events)\s+\w+\s+ON\s+\w+\.id\s*=/gi),
        ].map((m) => `${f}: ${m[0]}`),
      );
    expect(found).toEqual([]);
  });

  it('reads one partition for a look-up by id, and still finds a row whose created strays from its id', async () => {
    for (const [table, ids] of [
      ['signals', signalIds],
      ['events', eventIds],
    ] as const) {
      const sql = `SELECT * FROM (SELECT $1::text AS id) k CROSS JOIN LATERAL ${rowByIdSql(table, '*', 'k.id')} r`;
      for (const [i, id] of ids.entries()) {
        // the joins' form (prepared statements): the fallback is planned but never runs
        expect(await relationsRead(db, sql, [id])).toEqual([partitionOf(table, times[i]!)]);
        // the API's look-ups (readSignalFor, readEventFor): planned for one partition only
        const bounded = Prisma.sql`SELECT * FROM ${Prisma.raw(table)} r WHERE ${idWhere('r', id, true)}`;
        expect(await relationsRead(db, bounded.text, bounded.values, true)).toEqual([partitionOf(table, times[i]!)]);
      }
    }
    // planted by hand months away from its id's time: the bounded read misses, the fallback finds it
    const stray = newId(ID_PREFIXES.signal);
    await db.pool.query(
      `INSERT INTO signals (id, org_id, livemode, fingerprint, asset_type, observed_at, content_digest, created)
       VALUES ($1, 'org_p', true, 'fp-stray', 'mcp_server', now(), 'd', $2)`,
      [stray, midMonth(-3)],
    );
    expect(await readSignalFor(db.prisma, { id: stray, orgId: 'org_p', livemode: true })).toMatchObject({ id: stray });
    await db.pool.query('DELETE FROM signals WHERE id = $1', [stray]);
  });

  it('creates months ahead and moves rows out of the DEFAULT partition', async () => {
    const far = midMonth(9);
    // a row of a month no one created yet lands in the DEFAULT partition
    await db.pool.query(
      `INSERT INTO events (id, type, livemode, data, created) VALUES ($1, 'threat.created', true, '{}', $2)`,
      [newId(ID_PREFIXES.event), far],
    );
    expect((await defaultPartitionRows(db.pool)).events).toBe(1);
    const created = await ensureMonthPartitions(db.pool, monthStart(now, 4));
    expect(created).toEqual(
      expect.arrayContaining([
        partitionOf('signals', midMonth(4)),
        partitionOf('signals', midMonth(7)),
        partitionOf('events', midMonth(4)),
        partitionOf('events', midMonth(7)),
        partitionOf('events', far),
      ]),
    );
    expect(await defaultPartitionRows(db.pool)).toEqual({ signals: 0, events: 0 });
    const { rows } = await db.pool.query(`SELECT tableoid::regclass::text AS part FROM events WHERE created = $1`, [
      far,
    ]);
    expect(rows).toEqual([{ part: partitionOf('events', far) }]);
    // a second run creates nothing
    expect(await ensureMonthPartitions(db.pool, monthStart(now, 4))).toEqual([]);
  });

  it('drops whole months past retention with their rows and deliveries, never the current month', async () => {
    const count = async (sql: string) => (await db.pool.query<{ n: number }>(sql)).rows[0]!.n;
    const currentEvents = await count(`SELECT count(*)::int AS n FROM ${partitionOf('events', now)}`);
    expect(currentEvents).toBeGreaterThan(0);
    // everything before last month is past retention: the events of five and three months ago go
    const events = await dropExpiredMonths(db.pool, { table: 'events', before: monthStart(now, -1) });
    expect(events.rows).toBe(2);
    expect(events.dropped).toEqual(
      expect.arrayContaining([partitionOf('events', times[0]!), partitionOf('events', times[1]!)]),
    );
    expect(events.dropped).not.toContain(partitionOf('events', now));
    expect(await count(`SELECT count(*)::int AS n FROM ${partitionOf('events', now)}`)).toBe(currentEvents);
    const { rows: left } = await db.pool.query<{ id: string }>('SELECT id FROM events WHERE id = ANY($1) ORDER BY id', [
      eventIds,
    ]);
    expect(left.map((r) => r.id)).toEqual(eventIds.slice(2));
    const { rows: deliveries } = await db.pool.query<{ event_id: string }>(
      'SELECT event_id FROM webhook_deliveries ORDER BY event_id',
    );
    expect(deliveries.map((d) => d.event_id)).toEqual(eventIds.slice(2));
    const { rows: gone } = await db.pool.query('SELECT to_regclass($1) AS t', [partitionOf('events', times[0]!)]);
    expect(gone).toEqual([{ t: null }]);

    // a signals month still holding an org's latest observation is kept; the other goes
    await db.pool.query(
      `INSERT INTO assets (livemode, fingerprint, asset_type, latest_signal_id, latest_digest, first_seen, last_seen)
       VALUES (true, 'fp-2', 'mcp_server', $1, 'digest-2', $2, $2)`,
      [signalIds[1], times[1]],
    );
    await db.pool.query(
      `INSERT INTO asset_orgs (livemode, fingerprint, org_id, latest_signal_id, latest_digest, first_seen, last_seen)
       VALUES (true, 'fp-2', 'org_p', $1, 'digest-2', $2, $2)`,
      [signalIds[1], times[1]],
    );
    const signals = await dropExpiredMonths(db.pool, { table: 'signals', before: monthStart(now, -1) });
    expect(signals.kept).toContain(partitionOf('signals', times[1]!));
    expect(signals.dropped).toContain(partitionOf('signals', times[0]!));
    expect(signals.dropped).not.toContain(partitionOf('signals', now));
    expect(signals.rows).toBe(1);
    const { rows: kept } = await db.pool.query<{ id: string }>('SELECT id FROM signals ORDER BY id');
    expect(kept.map((r) => r.id)).toEqual(signalIds.slice(1));
    expect(await defaultPartitionRows(db.pool)).toEqual({ signals: 0, events: 0 });
  });
});
