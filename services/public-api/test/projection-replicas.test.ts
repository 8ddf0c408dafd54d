// The projection scales out with the API replicas, and admission control bounds its backlog (docs/reliability.md
// "Asset projection", "Admission control"; docs/scaling.md "Bulk projection"). Real processes (main.ts) on one
// database and Redis prefix: three replicas take bulks across many assets, every signal is applied exactly once,
// each asset's signals in acceptance order, and more than one replica applies; a replica with a tiny
// PROJECTION_BACKLOG_MAX answers 503 with Retry-After while the backlog is past it, writing nothing, and accepts the
// same request (same Idempotency-Key) once the backlog has drained.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { PROJECTION_BUCKETS } from '@risk/db';
import { freePort, parsePrometheusText, serviceProcessEnv, waitFor } from '@risk/testing';
import request from 'supertest';
import { createHarness, idem, signalBody, type Harness } from './harness';

const MAIN = path.join(__dirname, '..', 'src', 'main.ts');
const METRICS_TOKEN = randomBytes(24).toString('hex');
/** the advisory lock class of the projection's buckets (signals-statements.ts, rp_claim) */
const LOCK_CLASS = "hashtext('signal_projection')";

interface Replica {
  base: string;
  child: ChildProcess;
  output: string[];
}

let h: Harness;
const replicas: Replica[] = [];

async function startReplica(env: Record<string, string> = {}): Promise<Replica> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: path.join(MAIN, '..', '..'),
    env: {
      ...serviceProcessEnv(h.ctx),
      METRICS_TOKEN,
      PUBLIC_API_PORT: String(port),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ENABLED: 'false', // the bulks of a round come faster than a key's default rate
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const replica = { base: `http://127.0.0.1:${port}`, child, output: [] as string[] };
  replicas.push(replica);
  child.stdout!.on('data', (d: Buffer) => replica.output.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => replica.output.push(d.toString()));
  await waitFor(
    'a public API replica to be ready',
    async () => {
      if (child.exitCode !== null) throw new Error(`public API exited ${child.exitCode}: ${replica.output.join('')}`);
      return (
        (
          await request(replica.base)
            .get('/readyz')
            .catch(() => null)
        )?.status === 200
      );
    },
    60_000,
  );
  return replica;
}

beforeAll(async () => {
  h = await createHarness('projreplicas');
}, 60_000);

afterAll(async () => {
  await Promise.all(
    replicas.map(async ({ child }) => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }),
  );
  await h?.close();
}, 60_000);

const post = (replica: Replica, route: string, body: unknown, key = idem()) =>
  request(replica.base)
    .post(route)
    .set('Authorization', `Bearer ${h.key}`)
    .set('Idempotency-Key', key)
    .send(body as object);

async function metric(replica: Replica, name: string): Promise<number> {
  const res = await request(replica.base).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
  return parsePrometheusText(res.text).find((s) => s.name === name)?.value ?? 0;
}

const pending = async () => h.ctx.db.prisma.signalProjection.count();

/** Holds every bucket's advisory lock in a transaction of its own: no replica projects until `release`. */
async function stopProjection(): Promise<{ release(): Promise<void> }> {
  const locker = await h.ctx.db.pool.connect();
  await locker.query('BEGIN');
  await locker.query(
    `SELECT pg_advisory_xact_lock(${LOCK_CLASS}, b) FROM generate_series(0, ${PROJECTION_BUCKETS - 1}) b`,
  );
  let held = true;
  return {
    async release() {
      if (!held) return;
      held = false;
      await locker.query('ROLLBACK').catch(() => undefined);
      locker.release();
    },
  };
}

test('three replicas take bulks across many assets; each signal is applied once, in order per asset, by several replicas', async () => {
  const three = await Promise.all([startReplica(), startReplica(), startReplica()]);
  const ASSETS = 600;
  const ROUNDS = 5;
  const HELD = 3;
  const fps = Array.from({ length: ASSETS }, () => signalBody(h.orgId).fingerprint as string);
  const third = ASSETS / 3;
  /** per fingerprint, the receipt id of its signal in each round, in acceptance order */
  const accepted = new Map<string, string[]>(fps.map((fp) => [fp, []]));
  const submitRound = async (round: number) => {
    // each replica takes a third of the assets, a different third every round; the rounds follow one another, so
    // each asset's signals are accepted in round order
    const sent = await Promise.all(
      three.map((replica, r) => {
        const group = fps.slice(((r + round) % 3) * third, ((r + round) % 3) * third + third);
        const signals = group.map((fp) => signalBody(h.orgId, { fingerprint: fp, version: `v${round}` }));
        return post(replica, '/v1/signals/bulk', { signals });
      }),
    );
    expect(sent.map((res) => res.status)).toEqual([202, 202, 202]);
    for (const res of sent)
      for (const receipt of res.body.data as Array<{ id: string; fingerprint: string }>)
        accepted.get(receipt.fingerprint)!.push(receipt.id);
  };
  // the first rounds pile up while the projection is held (a burst larger than one claim: each asset has HELD
  // signals pending in its bucket, and every replica counts the backlog), the last ones arrive while it runs
  const stopped = await stopProjection();
  try {
    for (let round = 1; round <= HELD; round++) await submitRound(round);
    for (const replica of three)
      await waitFor(
        'every replica to count the backlog',
        async () => (await metric(replica, 'risk_projection_backlog')) === ASSETS * HELD,
        10_000,
      );
  } finally {
    await stopped.release();
  }
  for (let round = HELD + 1; round <= ROUNDS; round++) await submitRound(round);
  await waitFor('every accepted signal to be projected', async () => (await pending()) === 0, 60_000);

  // exactly once: every asset counts each of its signals once, asset.created once per asset
  const assets = await h.ctx.db.prisma.asset.findMany({ where: { fingerprint: { in: fps } } });
  expect(assets).toHaveLength(ASSETS);
  const orgs = await h.ctx.db.prisma.assetOrg.findMany({ where: { fingerprint: { in: fps } } });
  expect(orgs).toHaveLength(ASSETS);
  for (const row of [...assets, ...orgs]) {
    expect(row.signal_count).toBe(ROUNDS);
    // in acceptance order: the last round's signal is the latest observation, with its version
    expect(row.latest_signal_id).toBe(accepted.get(row.fingerprint)!.at(-1));
    expect(row.version).toBe(`v${ROUNDS}`);
  }
  expect(await h.ctx.db.prisma.event.count({ where: { type: 'asset.created', fingerprint: { in: fps } } })).toBe(
    ASSETS,
  );

  // the projection ran on several replicas, and their counts add up to every signal once
  const applied = await Promise.all(three.map((replica) => metric(replica, 'risk_projection_signals_total')));
  expect(applied.reduce((a, b) => a + b, 0)).toBe(ASSETS * ROUNDS);
  expect(applied.filter((n) => n > 0).length).toBeGreaterThan(1);
}, 180_000);

test('past PROJECTION_BACKLOG_MAX both signal routes answer 503 with Retry-After and write nothing; after the drain they accept', async () => {
  const BOUND = 20;
  const tiny = await startReplica({ PROJECTION_BACKLOG_MAX: String(BOUND) });
  // hold every bucket's lock: no replica projects (a stopped projection) until it is released
  const stopped = await stopProjection();
  try {
    const filling = Array.from({ length: BOUND + 10 }, () => signalBody(h.orgId));
    expect((await post(tiny, '/v1/signals/bulk', { signals: filling })).status).toBe(202);
    await waitFor(
      'the replica to count the backlog',
      async () => (await metric(tiny, 'risk_projection_backlog')) >= BOUND + 10,
      10_000,
    );

    const single = signalBody(h.orgId);
    const bulk = { signals: [signalBody(h.orgId), signalBody(h.orgId)] };
    const [singleKey, bulkKey] = [idem(), idem()];
    const refused = [
      await post(tiny, '/v1/signals', single, singleKey),
      await post(tiny, '/v1/signals/bulk', bulk, bulkKey),
    ];
    for (const res of refused) {
      expect(res.status).toBe(503);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.body.error).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
      expect(res.body.error.message).not.toMatch(/\d/); // no figures of the shared backlog
    }
    // nothing written: no signal, no marker, no Idempotency-Key claim
    const fps = [single, ...bulk.signals].map((s) => s.fingerprint as string);
    expect(await h.ctx.db.prisma.signal.count({ where: { fingerprint: { in: fps } } })).toBe(0);
    expect(await h.ctx.db.prisma.idempotencyKey.count({ where: { key: { in: [singleKey, bulkKey] } } })).toBe(0);
    expect(await pending()).toBe(BOUND + 10);

    await stopped.release();
    await waitFor('the backlog to drain', async () => (await metric(tiny, 'risk_projection_backlog')) === 0, 30_000);
    // the same requests, same keys: accepted as first attempts
    expect((await post(tiny, '/v1/signals', single, singleKey)).status).toBe(202);
    const accepted = await post(tiny, '/v1/signals/bulk', bulk, bulkKey);
    expect(accepted.status).toBe(202);
    expect(accepted.body.data).toHaveLength(2);
  } finally {
    await stopped.release();
  }
}, 120_000);
