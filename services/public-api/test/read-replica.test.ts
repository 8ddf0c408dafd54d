// DATABASE_READ_URL against a real streaming replica (docs/scaling.md "Read replicas"): lists read the replica and
// lag behind while its replay is paused; GET by id right after the caller's write reads the primary; the replay
// lag is visible on /metrics as risk_db_replica_lag_seconds.
import { randomBytes } from 'node:crypto';
import { mintApiKey } from '@risk/common/api-keys';
import { loadConfig } from '@risk/common/config';
import { createLogger } from '@risk/common/observability';
import { ApiKeyAuthenticator } from '@risk/common/http';
import { QueueProducer } from '@risk/common/queue';
import { SCOPES } from '@risk/contracts';
import { createPrisma, type DbHandle } from '@risk/db';
import { deleteRedisPrefix, migrate, parsePrometheusText, TEST_REDIS_URL, waitFor } from '@risk/testing';
import request from 'supertest';
import { createApp, type PublicApiApp } from '../src/app';
import { collectReplicaLag } from '../src/replica-lag';
import { signalBody, idem } from './harness';
import { startPgPair, type PgPair } from './pg-replica';

const METRICS_TOKEN = randomBytes(24).toString('hex');
const prefix = `test-replica-${randomBytes(4).toString('hex')}`;
let pair: PgPair;
let primary: DbHandle;
let replica: DbHandle;
let producer: QueueProducer;
let authenticator: ApiKeyAuthenticator;
let app: PublicApiApp;
let key: string;
let stopLagMetric: () => void;
const orgId = 'org_replica';

beforeAll(async () => {
  pair = await startPgPair();
  await migrate(pair.primaryUrl);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: pair.primaryUrl,
    DATABASE_READ_URL: pair.replicaUrl,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: prefix,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    METRICS_TOKEN,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_LIVE_PER_SECOND: '1000000',
    RATE_LIMIT_TEST_PER_SECOND: '1000000',
  });
  // the two handles main.ts builds from DATABASE_URL and DATABASE_READ_URL (runApiProcess)
  primary = createPrisma({ url: config.DATABASE_URL, applicationName: 'test-replica', max: 3 });
  replica = createPrisma({ url: config.DATABASE_READ_URL!, applicationName: 'test-replica', max: 3 });
  producer = new QueueProducer({ url: TEST_REDIS_URL, prefix }, 'test-replica');
  authenticator = new ApiKeyAuthenticator(primary.prisma, { cacheTtlMs: 0, lastUsedFlushMs: 60_000 });
  const logger = createLogger({ service: 'test-replica', level: 'error' });
  app = createApp({
    config,
    prisma: primary.prisma,
    pool: primary.pool,
    readDb: { prisma: replica.prisma, pool: replica.pool },
    producer,
    logger,
    authenticator,
  });
  stopLagMetric = collectReplicaLag(replica); // as main.ts does
  key = (await mintApiKey(primary.prisma, { org_id: orgId, scopes: [...SCOPES], livemode: true, expires_at: null }))
    .key;
}, 60_000);

afterAll(async () => {
  stopLagMetric?.();
  await authenticator?.close();
  await producer?.close();
  await replica?.close();
  await primary?.close();
  pair?.stop();
  await deleteRedisPrefix(TEST_REDIS_URL, prefix).catch(() => undefined);
});

const get = (path: string) => request(app).get(path).set('Authorization', `Bearer ${key}`);
const listed = async () =>
  ((await get('/v1/assets?limit=100')).body.data as Array<{ fingerprint: string }>).map((a) => a.fingerprint);
const lagMetric = async () => {
  const res = await request(app).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
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

test('lists read the replica and lag while its replay is paused; GET after a write reads the primary', async () => {
  const first = signalBody(orgId);
  const res1 = await request(app)
    .post('/v1/signals')
    .set('Authorization', `Bearer ${key}`)
    .set('Idempotency-Key', idem())
    .send(first);
  expect(res1.status).toBe(202);
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
    const res2 = await request(app)
      .post('/v1/signals')
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', idem())
      .send(second);
    expect(res2.status).toBe(202);
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
}, 60_000);
