/**
 * `pnpm bench` (not a test): starts the public API on a scratch database and measures, in one run on
 * this machine, each figure against a baseline measured in the same run:
 *   1. bulk ingest signals/s            vs a raw multi-row INSERT of the same rows through pg
 *   2. GET /v1/assets/{fp} req/s, p99   vs an express 5 hello-world handler
 *   3. POST /v1/signals req/s           vs an express 5 POST handler parsing the same JSON
 * Targets (2-core machine): bulk ≥ 0.5, GET ≥ 0.5, single POST ≥ 0.3. Figures go in docs/performance.md.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  ApiKeyAuthenticator,
  closeServer,
  ID_PREFIXES,
  listenWithLimits,
  mintApiKey,
  newId,
  newRequestId,
  QueueProducer,
  SCOPES,
} from '@risk/common';
import { createPrisma } from '@risk/db';
import { createTestContext } from '@risk/testing';
import autocannon from 'autocannon';
import express from 'express';
import { createApp } from '../src/app';
import { benchSignal as signal, urlOf } from './workload';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const BULK_BATCHES = 40;
/** untimed batches first, on both sides alike: JIT, prepared statements and pooled connections warm up */
const WARMUP_BATCHES = 4;

/** untimed autocannon seconds before each side's first measured run (JIT, pooled connections) */
const WARMUP_SECONDS = 1;
/** API and baseline runs alternate this many times; each side reports its median run */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** `false` measures without the rate limiter (docs/security.md "Rate limits and caps"); by default it runs, never refusing */
const RATE_LIMIT_ENABLED = process.env.BENCH_RATE_LIMIT ?? 'true';

interface CannonFigure {
  rps: number;
  p99: number;
  non2xx: number;
}

async function cannon(opts: autocannon.Options): Promise<CannonFigure> {
  const result = await autocannon({ duration: DURATION, connections: CONNECTIONS, ...opts });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * The API and its baseline measured in alternation (api, base, api, base, …) after a warm-up of each,
 * so a drift of the shared machine (another process, a Postgres checkpoint) hits both sides alike
 * instead of whichever ran second; each side's figure is its median run, and every round's ratio is
 * printed too.
 */
async function paired(api: autocannon.Options, base: autocannon.Options) {
  await autocannon({ duration: WARMUP_SECONDS, connections: CONNECTIONS, ...api });
  await autocannon({ duration: WARMUP_SECONDS, connections: CONNECTIONS, ...base });
  const runs: Array<{ api: CannonFigure; base: CannonFigure }> = [];
  for (let r = 0; r < ROUNDS; r++) runs.push({ api: await cannon(api), base: await cannon(base) });
  const side = (k: 'api' | 'base'): CannonFigure => ({
    rps: median(runs.map((x) => x[k].rps)),
    p99: median(runs.map((x) => x[k].p99)),
    non2xx: runs.reduce((n, x) => n + x[k].non2xx, 0),
  });
  return {
    api: side('api'),
    base: side('base'),
    rounds: runs.map((x) => (x.api.rps / x.base.rps).toFixed(2)).join(' '),
  };
}

async function main() {
  const ctx = await createTestContext('bench', { ENRICHMENT_TTL_DAYS: '7', RATE_LIMIT_ENABLED });
  // the API gets its own pool sized as main.ts sizes it (DATABASE_POOL_MAX), not the test context's
  const db = createPrisma({
    url: ctx.databaseUrl,
    applicationName: 'bench-public-api',
    max: ctx.config.DATABASE_POOL_MAX,
  });
  const producer = new QueueProducer(ctx.redis, 'bench');
  const authenticator = new ApiKeyAuthenticator(db.prisma);
  const app = createApp({
    config: ctx.config,
    prisma: db.prisma,
    pool: db.pool,
    producer,
    logger: ctx.logger,
    authenticator,
  });
  const server = await listenWithLimits(app, { port: 0, host: '127.0.0.1' });
  const base = urlOf(server);
  const orgId = 'org_bench';
  const key = (await mintApiKey(ctx.db.prisma, { org_id: orgId, scopes: [...SCOPES], livemode: true })).key;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

  // baselines: express 5 hello world (GET) and a POST handler parsing the same JSON
  const hello = express();
  hello.get('/hello', (_req, res) => {
    res.json({ hello: 'world' });
  });
  hello.post('/echo', express.json({ limit: '2mb' }), (req, res) => {
    res.status(202).json({ received: Object.keys(req.body as object).length });
  });
  const helloServer = await listenWithLimits(hello, { port: 0, host: '127.0.0.1' });

  // ── 1. bulk ingest vs raw multi-row INSERT ──
  // In a function of its own so its 44 × 500 prepared signals are garbage once it returns: kept alive,
  // they would make every later major GC (the API's more than hello's) scan them.
  const run = randomUUID().slice(0, 8);
  const { apiBulkRate, rawBulkRate } = await (async () => {
    const TOTAL = WARMUP_BATCHES + BULK_BATCHES;
    const batches = Array.from({ length: TOTAL }, (_, b) => ({
      signals: Array.from({ length: 500 }, (_, i) => signal(orgId, b * 500 + i, run)),
    }));
    /** batches [from, to) two at a time; returns signals/s */
    const timed = async (from: number, to: number, send: (b: number) => Promise<unknown>) => {
      const t0 = performance.now();
      for (let b = from; b < to; b += 2) await Promise.all([send(b), send(b + 1)]);
      return ((to - from) * 500) / ((performance.now() - t0) / 1000);
    };
    const apiBulk = async (b: number) => {
      const res = await fetch(`${base}/v1/signals/bulk`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': randomUUID() },
        body: JSON.stringify(batches[b]),
      });
      if (res.status !== 202) throw new Error(`bulk answered ${res.status}: ${await res.text()}`);
    };
    await timed(0, WARMUP_BATCHES, apiBulk);
    const apiBulkRate = await timed(WARMUP_BATCHES, TOTAL, apiBulk);

    // The same rows as the API stores, column for column (ids, digests and request ids of the API's
    // sizes; request_id and created included) into the same table with the same indexes.
    const rawRows = batches.flatMap((b) => b.signals);
    const rawIds = rawRows.map(() => newId(ID_PREFIXES.signal));
    const rawDigests = rawRows.map((r) => createHash('sha256').update(r.raw_manifest).digest('hex'));
    const rawRequestIds = Array.from({ length: TOTAL }, () => newRequestId());
    const rawBulk = (k: number) => {
      const created = new Date();
      const values: unknown[] = [];
      const tuples: string[] = [];
      for (let i = 0; i < 500; i++) {
        const j = k * 500 + i;
        const r = rawRows[j]!;
        values.push(
          rawIds[j],
          r.org_id,
          true,
          r.fingerprint,
          r.asset_type,
          new Date(r.observed_at * 1000),
          r.name,
          r.version,
          r.source_url,
          r.raw_manifest,
          JSON.stringify(r.metadata),
          rawDigests[j],
          rawRequestIds[k],
          created,
        );
        const o = i * 14;
        tuples.push(
          `($${o + 1},$${o + 2},$${o + 3},$${o + 4},$${o + 5},$${o + 6},$${o + 7},$${o + 8},$${o + 9},$${o + 10},$${o + 11}::jsonb,$${o + 12},$${o + 13},$${o + 14})`,
        );
      }
      return db.pool.query(
        `INSERT INTO signals (id, org_id, livemode, fingerprint, asset_type, observed_at, name, version, source_url, raw_manifest, metadata, content_digest, request_id, created) VALUES ${tuples.join(',')}`,
        values,
      );
    };
    await timed(0, WARMUP_BATCHES, rawBulk);
    const rawBulkRate = await timed(WARMUP_BATCHES, TOTAL, rawBulk);
    return { apiBulkRate, rawBulkRate };
  })();

  // The bulk 202s do not wait for their 20 000 BullMQ adds (they run after commit, in the background):
  // let them finish so the next figures measure the API idle, not the bulk's tail.
  for (let waited = 0; waited < 30_000; waited += 200) {
    const { rows } = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM outbox WHERE processed_at IS NULL');
    if (rows[0]!.n === '0') break;
    await new Promise((r) => setTimeout(r, 200));
  }

  // ── 2. GET /v1/assets/{fp} vs hello world ──
  const fp = encodeURIComponent(`bench:${run}:42`);
  const get = await paired({ url: `${base}/v1/assets/${fp}`, headers }, { url: `${urlOf(helloServer)}/hello` });

  // ── 3. POST /v1/signals vs an express JSON POST ──
  let n = 0;
  const postBody = () => JSON.stringify(signal(orgId, 100_000 + (n++ % 2000), run));
  const post = await paired(
    {
      url: `${base}/v1/signals`,
      method: 'POST',
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            headers: { ...headers, 'idempotency-key': randomUUID() },
            body: postBody(),
          }),
        },
      ],
    },
    {
      url: `${urlOf(helloServer)}/echo`,
      method: 'POST',
      requests: [
        { setupRequest: (req) => ({ ...req, headers: { 'content-type': 'application/json' }, body: postBody() }) },
      ],
    },
  );

  const fmt = (x: number) => x.toFixed(0).padStart(8);
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const lines = [
    `public-api bench — ${new Date().toISOString()} — node ${process.version}, ${(await import('node:os')).cpus().length} CPUs, ${DURATION}s × ${CONNECTIONS} connections, ${ROUNDS} alternating rounds (medians)`,
    '',
    `bulk ingest       api ${fmt(apiBulkRate)} signals/s   raw INSERT ${fmt(rawBulkRate)} signals/s   ratio ${ratio(apiBulkRate, rawBulkRate)} (target ≥ 0.50)`,
    `GET asset         api ${fmt(get.api.rps)} req/s (p99 ${get.api.p99} ms)   hello ${fmt(get.base.rps)} req/s (p99 ${get.base.p99} ms)   ratio ${ratio(get.api.rps, get.base.rps)} (target ≥ 0.50; rounds ${get.rounds})`,
    `POST /v1/signals  api ${fmt(post.api.rps)} req/s (p99 ${post.api.p99} ms)   express POST ${fmt(post.base.rps)} req/s (p99 ${post.base.p99} ms)   ratio ${ratio(post.api.rps, post.base.rps)} (target ≥ 0.30; rounds ${post.rounds})`,
    '',
    `non-2xx responses: GET ${get.api.non2xx}, POST ${post.api.non2xx}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  await closeServer(server, 2000);
  await closeServer(helloServer, 2000);
  await authenticator.close();
  await producer.close();
  await db.close();
  await ctx.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
