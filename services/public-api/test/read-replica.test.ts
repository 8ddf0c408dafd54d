// DATABASE_READ_URL against a real streaming replica (docs/scaling.md "Read replicas"): lists read the replica and
// lag behind while its replay is paused; GET by id right after the caller's write reads the primary; the replay
// lag is visible on /metrics as risk_db_replica_lag_seconds. The real process runs (main.ts), so the wiring from the
// environment to the two pools is what is tested.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { mintApiKey } from '@risk/common/api-keys';
import { SCOPES } from '@risk/contracts';
import { createPrisma, type DbHandle } from '@risk/db';
import {
  deleteRedisPrefix,
  freePort,
  migrate,
  parsePrometheusText,
  scaledByLoad,
  TEST_REDIS_URL,
  waitFor,
} from '@risk/testing';
import request from 'supertest';
import { signalBody, idem } from './harness';
import { startPgPair, type PgPair } from './pg-replica';

const MAIN = path.join(__dirname, '..', 'src', 'main.ts');
const METRICS_TOKEN = randomBytes(24).toString('hex');
const prefix = `test-replica-${randomBytes(4).toString('hex')}`;
const orgId = 'org_replica';
let pair: PgPair;
let primary: DbHandle;
let replica: DbHandle;
let api: ChildProcess | undefined;
const output: string[] = [];
let base: string;
let key: string;

beforeAll(async () => {
  pair = await startPgPair();
  await migrate(pair.primaryUrl);
  primary = createPrisma({ url: pair.primaryUrl, applicationName: 'test-replica', max: 2 });
  replica = createPrisma({ url: pair.replicaUrl, applicationName: 'test-replica', max: 2 });
  key = (await mintApiKey(primary.prisma, { org_id: orgId, scopes: [...SCOPES], livemode: true, expires_at: null }))
    .key;
  // the real process: DATABASE_URL on the primary, DATABASE_READ_URL on the replica (runApiProcess, main.ts)
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  api = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: path.join(MAIN, '..', '..'),
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: pair.primaryUrl,
      DATABASE_READ_URL: pair.replicaUrl,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      SECRETS_KEY: randomBytes(32).toString('hex'),
      METRICS_TOKEN,
      PUBLIC_API_PORT: String(port),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  api.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
  api.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
  await waitFor(
    'the public API to be ready',
    async () => {
      if (api!.exitCode !== null) throw new Error(`public API exited ${api!.exitCode}: ${output.join('')}`);
      return (
        (
          await request(base)
            .get('/readyz')
            .catch(() => null)
        )?.status === 200
      );
    },
    30_000,
  );
}, scaledByLoad(60_000));

afterAll(async () => {
  if (api && api.exitCode === null) {
    const exited = new Promise((r) => api!.once('exit', r));
    api.kill('SIGTERM');
    await exited;
  }
  await replica?.close();
  await primary?.close();
  pair?.stop();
  await deleteRedisPrefix(TEST_REDIS_URL, prefix).catch(() => undefined);
}, scaledByLoad(30_000));

const get = (route: string) => request(base).get(route).set('Authorization', `Bearer ${key}`);
const submit = (body: object) =>
  request(base).post('/v1/signals').set('Authorization', `Bearer ${key}`).set('Idempotency-Key', idem()).send(body);
const listed = async () =>
  ((await get('/v1/assets?limit=100')).body.data as Array<{ fingerprint: string }>).map((a) => a.fingerprint);
const lagMetric = async () => {
  const res = await request(base).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
  return parsePrometheusText(res.text).find((s) => s.name === 'risk_db_replica_lag_seconds')?.value;
};

test('the replica is a streaming standby of the primary', async () => {
  const { rows } = await replica.pool.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
  expect(rows[0]!.standby).toBe(true);
  const { rows: senders } = await primary.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = 'streaming'",
  );
  expect(senders[0]!.n).toBe(1);
});

test(
  'lists read the replica and lag while its replay is paused; GET after a write reads the primary',
  async () => {
    const first = signalBody(orgId);
    expect((await submit(first)).status).toBe(202);
    // caught up, the list shows the asset (the replica has replayed the write)
    await waitFor(
      'the replica to list the first asset',
      async () => (await listed()).includes(first.fingerprint as string),
      10_000,
    );
    expect(await lagMetric()).toBe(0);

    await replica.pool.query('SELECT pg_wal_replay_pause()');
    try {
      const second = signalBody(orgId);
      expect((await submit(second)).status).toBe(202);
      // read-your-write: the asset is there at once, read on the primary
      const got = await get(`/v1/assets/${second.fingerprint as string}`);
      expect(got.status).toBe(200);
      expect(got.body.fingerprint).toBe(second.fingerprint);
      // the list reads the paused replica: the new asset is not in it yet, the older one is
      const during = await listed();
      expect(during).toContain(first.fingerprint);
      expect(during).not.toContain(second.fingerprint);
      // the replica has received WAL it has not replayed: the lag gauge says so
      await waitFor('a positive replica lag', async () => ((await lagMetric()) ?? 0) > 0, 10_000);
    } finally {
      await replica.pool.query('SELECT pg_wal_replay_resume()');
    }
    await waitFor('the replica to list both assets', async () => (await listed()).length === 2, 10_000);
    await waitFor('the lag to return to 0', async () => (await lagMetric()) === 0, 10_000);
  },
  scaledByLoad(60_000),
);
