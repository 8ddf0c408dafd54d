// The asynchronous asset projection of bulk ingest (docs/reliability.md "Asset projection").
import { signalsStore as sql, withIngestSession } from '@risk/db';
import { currentSlowdown } from '@risk/time-budget';
import request from 'supertest';
import { createApp } from '../src/app';
import { projectPending, startProjector, type Projector } from '../src/domain/signals/projector';
import { createHarness, idem, projectorDeps, projected, signalBody, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('projection');
});
afterAll(() => h.close());

const deps = () => projectorDeps(h);
const bulk = (signals: unknown[], app = h.app, key = h.key) =>
  request(app)
    .post('/v1/signals/bulk')
    .set('Authorization', `Bearer ${key}`)
    .set('Idempotency-Key', idem())
    .send({ signals });
const getAsset = (fp: string, key = h.key) =>
  request(h.app)
    .get(`/v1/assets/${encodeURIComponent(fp)}`)
    .set('Authorization', `Bearer ${key}`);
const pendingCount = async () => h.ctx.db.prisma.signalProjection.count();
const created = (fps: string[]) =>
  h.ctx.db.prisma.event.count({ where: { type: 'asset.created', fingerprint: { in: fps } } });
/** polls `done` every 10 ms; returns the ms it took */
async function until(done: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (!(await done())) await new Promise((r) => setTimeout(r, 10));
  return performance.now() - started;
}

test('an accepted asset is readable as pending before its projection (no projector, no worker), then projected', async () => {
  const signals = [signalBody(h.orgId, { name: 'first' }), signalBody(h.orgId)];
  signals.push(signalBody(h.orgId, { fingerprint: signals[0]!.fingerprint, name: 'acme/latest' }));
  const fp = signals[0]!.fingerprint as string;
  const res = await bulk(signals);
  expect(res.status).toBe(202);
  expect(await h.ctx.db.prisma.asset.count({ where: { fingerprint: fp } })).toBe(0);

  const pending = await getAsset(fp);
  expect(pending.status).toBe(200);
  expect(pending.body).toMatchObject({
    fingerprint: fp,
    enrichment_status: 'pending',
    name: 'acme/latest',
    signal_count: 2,
  });
  const lookup = await request(h.app)
    .get(`/v1/assets/lookup?fingerprints=${encodeURIComponent(fp)}`)
    .set('Authorization', `Bearer ${h.key}`);
  expect(lookup.status).toBe(200);
  expect(lookup.body.data[0]).toMatchObject({
    match: 'exact',
    asset: { fingerprint: fp, enrichment_status: 'pending' },
  });

  // another org, and the same org's test mode, learn nothing of a pending fingerprint
  const other = await h.mintKey({ orgId: 'org_projection_other' });
  expect((await getAsset(fp, other)).status).toBe(404);
  const testMode = await h.mintKey({ livemode: false });
  expect((await getAsset(fp, testMode)).status).toBe(404);

  await projected(h);
  expect(await pendingCount()).toBe(0);
  const asset = await h.ctx.db.prisma.asset.findUniqueOrThrow({
    where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
  });
  expect(asset).toMatchObject({ enrichment_status: 'pending', name: 'acme/latest', signal_count: 2 });
  expect((await getAsset(fp)).body).toMatchObject({ fingerprint: fp, enrichment_status: 'pending', signal_count: 2 });
  expect(await created([fp, signals[1]!.fingerprint as string])).toBe(2);
  // the enrichment job is in the outbox, one for the asset
  const { rows } = await h.ctx.db.pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM outbox WHERE kind = 'enrichment' AND payload->>'fingerprint' = $1`,
    [fp],
  );
  expect(rows[0]!.n).toBe('1');
  expect(await projectPending(deps())).toBe(0); // re-running applies nothing twice
});

test('two app instances projecting at once apply each signal once (events emitted once)', async () => {
  const projectors: Projector[] = [startProjector(deps(), { pollMs: 20 }), startProjector(deps(), { pollMs: 20 })];
  const apps = projectors.map((projector) => createApp({ ...deps(), authenticator: h.authenticator, projector }));
  try {
    const fps = Array.from({ length: 40 }, () => signalBody(h.orgId).fingerprint as string);
    // every fingerprint twice, through both instances, in 8 requests of 10
    const sent = await Promise.all(
      Array.from({ length: 8 }, (_, r) =>
        bulk(
          fps.slice((r % 4) * 10, (r % 4) * 10 + 10).map((fp) => signalBody(h.orgId, { fingerprint: fp })),
          apps[r % 2],
        ),
      ),
    );
    expect(sent.map((r) => r.status)).toEqual(Array(8).fill(202));
    await until(async () => (await pendingCount()) === 0);
    const assets = await h.ctx.db.prisma.asset.findMany({ where: { fingerprint: { in: fps } } });
    expect(assets).toHaveLength(40);
    expect(assets.every((a) => a.signal_count === 2)).toBe(true);
    const orgs = await h.ctx.db.prisma.assetOrg.findMany({ where: { fingerprint: { in: fps } } });
    expect(orgs.map((o) => o.signal_count)).toEqual(Array(40).fill(2));
    expect(await created(fps)).toBe(40);
  } finally {
    await Promise.all(projectors.map((p) => p.stop()));
  }
});

test('a crash between the commit and the projection, or during the projection, loses nothing', async () => {
  // the accepting replica dies right after its 202 (nothing projects), and a projection dies mid-transaction
  const first = [signalBody(h.orgId), signalBody(h.orgId)];
  expect((await bulk(first)).status).toBe(202);
  const held = signalBody(h.orgId);
  await bulk([held]);
  await projected(h);
  const second = [signalBody(h.orgId, { fingerprint: held.fingerprint, version: '2' }), signalBody(h.orgId)];
  expect((await bulk([...second, ...first])).status).toBe(202);

  // a concurrent transaction holds the held asset's row: the projection waits on its lock, then its backend
  // is terminated (a crashed replica); its transaction is rolled back with nothing applied
  const locker = await h.ctx.db.pool.connect();
  try {
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM assets WHERE livemode AND fingerprint = $1 FOR UPDATE', [held.fingerprint]);
    const crashing = projectPending(deps()).then(
      () => 'projected',
      () => 'crashed',
    );
    await until(async () => {
      const { rows } = await h.ctx.db.pool.query(
        `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
         WHERE wait_event_type = 'Lock' AND query LIKE '%ri_assets%' AND pid <> pg_backend_pid()`,
      );
      return rows.length > 0;
    });
    expect(await crashing).toBe('crashed');
  } finally {
    await locker.query('ROLLBACK');
    locker.release();
  }
  expect(await pendingCount()).toBe(2 + 2); // nothing applied, nothing lost

  // a fresh projector (another replica, or this one restarted) applies everything once
  const restarted = startProjector(deps(), { pollMs: 20 });
  try {
    await until(async () => (await pendingCount()) === 0);
  } finally {
    await restarted.stop();
  }
  const counts = await h.ctx.db.prisma.asset.findMany({
    where: { fingerprint: { in: [...first, held, ...second].map((s) => s.fingerprint as string) } },
    select: { fingerprint: true, signal_count: true, version: true },
  });
  const byFp = new Map(counts.map((a) => [a.fingerprint, a]));
  expect(byFp.get(held.fingerprint as string)).toMatchObject({ signal_count: 2, version: '2' });
  for (const s of first) expect(byFp.get(s.fingerprint as string)!.signal_count).toBe(2);
  expect(await created([...first, held, ...second].map((s) => s.fingerprint as string))).toBe(4);
});

test('lists reflect a bulk within the documented lag (1 s on the reference machine) while the loop runs', async () => {
  const projector = startProjector(deps());
  const app = createApp({ ...deps(), authenticator: h.authenticator, projector });
  try {
    const signals = Array.from({ length: 20 }, () => signalBody(h.orgId));
    expect((await bulk(signals, app)).status).toBe(202);
    const lag = await until(async () => {
      const res = await request(app).get('/v1/assets?limit=100').set('Authorization', `Bearer ${h.key}`);
      const listed = new Set((res.body.data as Array<{ fingerprint: string }>).map((a) => a.fingerprint));
      return signals.every((s) => listed.has(s.fingerprint as string));
    });
    expect(lag).toBeLessThanOrEqual(1000 * currentSlowdown());
  } finally {
    await projector.stop();
  }
});

test('a claim locks only the buckets it asks for, oldest head first, and takes a prefix of each in acceptance order', async () => {
  await projected(h);
  // 64 new assets over two requests: every bucket gets markers
  expect((await bulk(Array.from({ length: 32 }, () => signalBody(h.orgId)))).status).toBe(202);
  expect((await bulk(Array.from({ length: 32 }, () => signalBody(h.orgId)))).status).toBe(202);
  const markers = await h.ctx.db.prisma.signalProjection.findMany({ orderBy: { seq: 'asc' } });
  const heads = [...new Set(markers.map((m) => m.bucket))]; // buckets by their oldest marker
  expect(heads.length).toBeGreaterThan(2);

  const held = await withIngestSession(h.ctx.db.pool, async (session) => {
    session.inTransaction = true;
    try {
      const [, claimed] = await session.run([sql.begin, sql.claimProjection(500, 2)].join(';\n'));
      const [locks] = await session.run(
        `SELECT objid::bigint AS bucket FROM pg_locks
          WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND objsubid = 2
            AND classid = hashtext('signal_projection')::oid ORDER BY 1`,
      );
      return {
        rows: claimed!.rows as Array<{ id: string; bucket: number }>,
        locked: locks!.rows.map((r: { bucket: string }) => Number(r.bucket)),
      };
    } finally {
      await session.run('ROLLBACK');
      session.inTransaction = false;
    }
  });
  // exactly the two buckets with the oldest heads, and every pending marker of theirs, in seq order
  expect(held.locked).toEqual([...heads.slice(0, 2)].sort((a, b) => a - b));
  const expected = markers.filter((m) => heads.slice(0, 2).includes(m.bucket)).map((m) => m.signal_id);
  expect(held.rows.map((r) => r.id)).toEqual(expected);
  await projected(h);
});
