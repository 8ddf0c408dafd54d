/**
 * `pnpm bench` (not a test): starts the public API on a scratch database and measures, in one run on
 * this machine, each figure against a baseline measured in the same run:
 *   1. bulk ingest signals/s            vs a raw multi-row INSERT of the same rows through pg
 *   2. GET /v1/assets/{fp} req/s, p99   vs an express 5 hello-world handler
 *   3. POST /v1/signals req/s           vs an express 5 POST handler parsing the same JSON
 *   3b. POST /v1/signals p50, p99 at half the API's saturated POST rate, open loop, vs the same POST at that rate
 * Targets (2-core machine): bulk ≥ 0.4, GET ≥ 0.7, single POST ≥ 0.3, and its open-loop p99 ≤ 2× the baseline's.
 * `BENCH_ONLY=post` runs the POST phases alone.
 * Every figure prints as a ratio against its same-run baseline, with p99s. Figures go in docs/performance.md.
 */
import { createHash, randomUUID } from 'node:crypto';
import os from 'node:os';
import { closeServer, listenWithLimits } from '@risk/common/server';
import { ID_PREFIXES, newId, newRequestId } from '@risk/db';
import { loadAverage, median, percentile, runBench } from '@risk/testing';
import autocannon from 'autocannon';
import express from 'express';
import { jsonPoster, openLoop } from './open-loop';
import { benchSignal as signal, startBenchApi, untilNone, urlOf } from './workload';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
/** the method: 50 connections for GET and POST, 4 bulk requests in flight */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const BULK_IN_FLIGHT = Number(process.env.BENCH_BULK_IN_FLIGHT ?? 4);
/** 500-signal batches per side and round (the rounds alternate API and raw INSERT like GET and POST) */
const BULK_BATCHES_PER_ROUND = 16;
/** untimed batches first, half per side: JIT, prepared statements and pooled connections warm up */
const WARMUP_BATCHES = 8;

/** untimed autocannon seconds before each side's first measured run (JIT, pooled connections) */
const WARMUP_SECONDS = 1;
/** API and baseline runs alternate this many times; each side reports its median run */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** `false` measures without the rate limiter (docs/security.md "Rate limits and caps"); by default it runs, never refusing */
const RATE_LIMIT_ENABLED = process.env.BENCH_RATE_LIMIT ?? 'true';
/** seconds of each side's open-loop POST round, at half the API's saturated POST rate */
const OPEN_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 3);
/** the open-loop POST's offered load as a fraction of the API's saturated POST rate (the target is judged at 0.5) */
const OPEN_FRACTION = Number(process.env.BENCH_OPEN_FRACTION ?? 0.5);
/** `post`: only the POST phases (closed loop for the saturated rate, then open loop) */
const POST_ONLY = process.env.BENCH_ONLY === 'post';

interface CannonFigure {
  rps: number;
  p99: number;
  non2xx: number;
}

async function cannon(opts: autocannon.Options): Promise<CannonFigure> {
  const result = await autocannon({ duration: DURATION, connections: CONNECTIONS, ...opts });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx };
}

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
  const startLoad = loadAverage();
  const api = await startBenchApi('bench', { env: { RATE_LIMIT_ENABLED }, ownPool: true });
  const { db, base, orgId, headers } = api;

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
  const bulk = POST_ONLY
    ? undefined
    : await (async () => {
        const TOTAL = WARMUP_BATCHES + 2 * ROUNDS * BULK_BATCHES_PER_ROUND;
        const batches = Array.from({ length: TOTAL }, (_, b) => ({
          signals: Array.from({ length: 500 }, (_, i) => signal(orgId, b * 500 + i, run)),
        }));
        /**
         * batches [from, to) with BULK_IN_FLIGHT senders pulling the next batch; signals/s and each batch's latency
         */
        const timed = async (from: number, to: number, send: (b: number) => Promise<unknown>) => {
          const latencies: number[] = [];
          let next = from;
          const t0 = performance.now();
          const sender = async () => {
            for (let b = next++; b < to; b = next++) {
              const s0 = performance.now();
              await send(b);
              latencies.push(performance.now() - s0);
            }
          };
          await Promise.all(Array.from({ length: BULK_IN_FLIGHT }, sender));
          return { rate: ((to - from) * 500) / ((performance.now() - t0) / 1000), latencies };
        };
        const apiBulk = async (b: number) => {
          const res = await fetch(`${base}/v1/signals/bulk`, {
            method: 'POST',
            headers: { ...headers, 'idempotency-key': randomUUID() },
            body: JSON.stringify(batches[b]),
          });
          if (res.status !== 202) throw new Error(`bulk answered ${res.status}: ${await res.text()}`);
          // the client reads the compact receipts (docs/public-api.md "Signals and assets"), as a collector would
          const body = (await res.json()) as { data: Array<{ id: string }> };
          if (body.data.length !== 500 || !body.data[499]!.id) throw new Error('bulk 202 without 500 receipts');
        };

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
        /** waits until no accepted signal awaits its asset projection (polled every 5 ms) */
        const projected = () =>
          untilNone(db.pool, 'SELECT count(*) AS n FROM signal_projections WHERE failed_at IS NULL', 5);
        // untimed warm-up of both sides, then API and raw rounds in alternation (each on batches of its own)
        const half = WARMUP_BATCHES / 2;
        await timed(0, half, apiBulk);
        await timed(half, WARMUP_BATCHES, rawBulk);
        await projected();
        const apiRuns: Array<{ rate: number; latencies: number[] }> = [];
        const rawRuns: typeof apiRuns = [];
        const appliedRates: number[] = [];
        for (let r = 0; r < ROUNDS; r++) {
          const from = WARMUP_BATCHES + 2 * r * BULK_BATCHES_PER_ROUND;
          const t0 = performance.now();
          apiRuns.push(await timed(from, from + BULK_BATCHES_PER_ROUND, apiBulk));
          // the round's asset projection finishes before the raw round starts (it must not slow the baseline);
          // accepted + projected is the sustained rate (docs/performance.md)
          await projected();
          appliedRates.push((BULK_BATCHES_PER_ROUND * 500) / ((performance.now() - t0) / 1000));
          rawRuns.push(await timed(from + BULK_BATCHES_PER_ROUND, from + 2 * BULK_BATCHES_PER_ROUND, rawBulk));
        }
        const p99Of = (runs: typeof apiRuns) =>
          percentile(
            runs.flatMap((x) => x.latencies),
            0.99,
          );
        return {
          api: { rate: median(apiRuns.map((x) => x.rate)), p99: p99Of(apiRuns), applied: median(appliedRates) },
          raw: { rate: median(rawRuns.map((x) => x.rate)), p99: p99Of(rawRuns) },
          rounds: apiRuns.map((x, r) => (x.rate / rawRuns[r]!.rate).toFixed(2)).join(' '),
        };
      })();

  // The bulk 202s do not wait for their projection nor its 20 000 BullMQ adds (they run after commit, in the
  // background): let them finish so the next figures measure the API idle, not the bulk's tail.
  const idle = () =>
    untilNone(
      db.pool,
      'SELECT (SELECT count(*) FROM outbox WHERE processed_at IS NULL) + (SELECT count(*) FROM signal_projections WHERE failed_at IS NULL) AS n',
      200,
    );
  await idle();

  // ── 2. GET /v1/assets/{fp} vs hello world ──
  const fp = encodeURIComponent(`bench:${run}:42`);
  const get = POST_ONLY
    ? undefined
    : await paired({ url: `${base}/v1/assets/${fp}`, headers }, { url: `${urlOf(helloServer)}/hello` });

  // ── 2b. the 500-key look-up (target p50 ≤ 20 ms), one request at a time, against a 1-key look-up of the
  // same route timed the same way (the ratio is the cost of 500 keys over one) ──
  const lookupUrl = (keys: number) =>
    `${base}/v1/assets/lookup?${Array.from({ length: keys }, (_, i) => `fingerprints=${encodeURIComponent(`bench:${run}:${i}`)}`).join('&')}`;
  const timeLookups = async (keys: number, times: number) => {
    const url = lookupUrl(keys);
    const ms: number[] = [];
    for (let i = 0; i < times; i++) {
      const t0 = performance.now();
      const res = await fetch(url, { headers });
      const body = (await res.json()) as { data?: unknown[] };
      // every key was written by the bulk phase: a short answer would time misses, not the look-up
      if (res.status !== 200 || body.data?.length !== keys)
        throw new Error(`look-up of ${keys} answered ${res.status} with ${body.data?.length} assets`);
      ms.push(performance.now() - t0);
    }
    return ms;
  };
  const lookup500: number[] = [];
  const lookup1: number[] = [];
  if (!POST_ONLY) {
    await timeLookups(500, 5);
    await timeLookups(1, 5);
    for (let r = 0; r < ROUNDS; r++) {
      lookup500.push(...(await timeLookups(500, 20)));
      lookup1.push(...(await timeLookups(1, 20)));
    }
  }

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

  // ── 3b. POST at equal offered load: half the API's saturated rate just measured, open loop (open-loop.ts), the
  // API and the express POST alternating like the phases above after the closed loop's backlog is drained ──
  await idle();
  const openRate = post.api.rps * OPEN_FRACTION;
  const apiPoster = jsonPoster(`${base}/v1/signals`);
  const basePoster = jsonPoster(`${urlOf(helloServer)}/echo`);
  const openNon2xx = { api: 0, base: 0 };
  const openRun = async (side: 'api' | 'base', seconds: number) => {
    const run = await openLoop({
      rate: openRate,
      durationMs: seconds * 1000,
      send: async () => {
        const status =
          side === 'api'
            ? await apiPoster.post({ ...headers, 'idempotency-key': randomUUID() }, postBody())
            : await basePoster.post({ 'content-type': 'application/json' }, postBody());
        if (status !== 202) openNon2xx[side]++;
      },
    });
    return run.latencies;
  };
  await openRun('api', WARMUP_SECONDS);
  await openRun('base', WARMUP_SECONDS);
  openNon2xx.api = openNon2xx.base = 0;
  const openRounds: Array<{ api: number[]; base: number[] }> = [];
  for (let r = 0; r < ROUNDS; r++)
    openRounds.push({ api: await openRun('api', OPEN_SECONDS), base: await openRun('base', OPEN_SECONDS) });
  apiPoster.close();
  basePoster.close();
  // p50 and p99 of every round's requests together (a round of a few seconds holds a few hundred), each round's ratio too
  const openOf = (k: 'api' | 'base') => {
    const all = openRounds.flatMap((x) => x[k]);
    return { p50: percentile(all, 0.5), p99: percentile(all, 0.99) };
  };
  const open = {
    api: openOf('api'),
    base: openOf('base'),
    rounds: openRounds.map((x) => (percentile(x.api, 0.99) / percentile(x.base, 0.99)).toFixed(2)).join(' '),
  };

  const fmt = (x: number) => x.toFixed(0).padStart(8);
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const loads = loadAverage();
  const lines = [
    `public-api bench — ${new Date().toISOString()} — node ${process.version}, ${os.cpus().length} CPUs, load average ${startLoad} at start, ${loads} at end`,
    `${DURATION}s × ${CONNECTIONS} connections (GET, POST), ${BULK_IN_FLIGHT} bulk requests in flight, ${ROUNDS} alternating rounds (medians; p99 in ms); open-loop POST ${OPEN_SECONDS}s per side and round`,
    '',
    ...(bulk
      ? [
          `bulk ingest       ratio ${ratio(bulk.api.rate, bulk.raw.rate)} (target ≥ 0.40; rounds ${bulk.rounds})   api ${fmt(bulk.api.rate)} signals/s (p99 ${bulk.api.p99.toFixed(0)} ms per 500)   raw INSERT ${fmt(bulk.raw.rate)} signals/s (p99 ${bulk.raw.p99.toFixed(0)} ms)`,
          `  accepted + projected: ratio ${ratio(bulk.api.applied, bulk.raw.rate)} (api ${fmt(bulk.api.applied)} signals/s until the round's assets are projected)`,
        ]
      : []),
    ...(get
      ? [
          `GET asset         ratio ${ratio(get.api.rps, get.base.rps)} (target ≥ 0.70; rounds ${get.rounds})   api ${fmt(get.api.rps)} req/s (p99 ${get.api.p99} ms)   hello ${fmt(get.base.rps)} req/s (p99 ${get.base.p99} ms)`,
        ]
      : []),
    `POST /v1/signals  ratio ${ratio(post.api.rps, post.base.rps)} (target ≥ 0.30; rounds ${post.rounds})   api ${fmt(post.api.rps)} req/s (p99 ${post.api.p99} ms)   express POST ${fmt(post.base.rps)} req/s (p99 ${post.base.p99} ms)`,
    `POST open loop    p99 ratio ${ratio(open.api.p99, open.base.p99)}× (target ≤ 2×; rounds ${open.rounds}) at ${openRate.toFixed(0)} req/s (${OPEN_FRACTION} of the API's saturated rate)   api p50 ${open.api.p50.toFixed(1)} p99 ${open.api.p99.toFixed(1)} ms   express POST p50 ${open.base.p50.toFixed(1)} p99 ${open.base.p99.toFixed(1)} ms`,
    ...(POST_ONLY
      ? []
      : [
          `look-up 500 keys p50 ${percentile(lookup500, 0.5).toFixed(1)} ms (target ≤ 20 ms), p99 ${percentile(lookup500, 0.99).toFixed(1)} ms; ${ratio(percentile(lookup500, 0.5), percentile(lookup1, 0.5))}× a 1-key look-up (p50 ${percentile(lookup1, 0.5).toFixed(1)} ms); ${lookup500.length} sequential requests each`,
        ]),
    '',
    `non-2xx responses: GET ${get?.api.non2xx ?? '-'}, POST ${post.api.non2xx}, open-loop POST ${openNon2xx.api} (express ${openNon2xx.base})`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  await closeServer(helloServer, { deadlineMs: 2000 });
  await api.close();
}

runBench(main);
