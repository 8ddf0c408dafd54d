/**
 * `pnpm bench:enrichment` — enrichment throughput and latency with ONE real worker process.
 *
 * 1. Drains (the shipped advisory feeds loaded first), each of BENCH_ASSETS new assets whose signals are ingested
 *    through the public API's bulk route (each 202 = signals committed, jobs queued):
 *    - the cold drain(s): BENCH_COLD rounds, each on a FRESH worker process started once the round's signals are
 *      queued, as autoscaling starts a worker on a backlog; timed from its first healthy /healthz (its start-up,
 *      warm-up included, is printed beside) until every asset is enriched and the queue is empty.
 *      BENCH_COLD_VARIANTS (`;`-separated sets of `KEY=value` worker settings, e.g.
 *      `ENRICHMENT_WARMUP_MS=0;ENRICHMENT_WARMUP_MS=1000`; `NODE_ARGS=--a,--b` passes node flags) alternates the rounds between settings, to compare a lever
 *      cold within one run;
 *    - then one more worker process first enriches BENCH_WARMUP other assets, untimed: its JIT, prepared statements,
 *      pooled connections and analysis threads warm up, as the API bench's untimed batches do. Then two timed
 *      drains, their signals ingested while the queue is paused, timed from the queue's resume:
 *      - the drain: one signal per asset (the target's figure);
 *      - the backlog: BENCH_VERSIONS content versions per asset, all queued before the resume, so all but the
 *        latest job of each asset are skipped as superseded.
 *    BENCH_WARM=0 skips the warm worker (drain, backlog and low load), for cold comparisons. Manifests: the real files
 *    of the folder BENCH_SAMPLES names
 *    (model cards, config.json, MCP package.json / pyproject.toml / server.json / .mcp.json, …) with
 *    per-asset, per-version variations that keep each format valid (version fields, names, an added
 *    line in a card's body, weight file listings).
 * 2. Low load: new assets submitted one at a time; time from the 202 to the asset read back as
 *    enriched (p50/p99).
 * 3. Where the time goes: the timings every enrichment job returned during the drain (under load), the
 *    same for assets re-enriched sequentially in this process (no contention), the CPU the worker,
 *    Postgres (this database's backends) and Redis used during the drain, and the pure engine alone
 *    over the same manifests in this process as the baseline for the ratios.
 * A benchmark, not a test: it prints figures. Uses a scratch database and Redis prefix, removed at the end.
 * Env: BENCH_ASSETS (2000), BENCH_VERSIONS (5), BENCH_WARMUP (4000), BENCH_LOW_LOAD (200), BENCH_SAMPLES (manifest dir),
 * BENCH_COLD (1), BENCH_COLD_VARIANTS (none), BENCH_WARM (1),
 * ENRICHMENT_CONCURRENCY (passed to the worker; its default otherwise), BENCH_WORKER_NODE_ARGS (e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the worker).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { mintApiKey } from '@risk/common/api-keys';
import { loadConfig } from '@risk/common/config';
import { createLogger } from '@risk/common/observability';
import { JOBS, QueueProducer } from '@risk/common/queue';
import { SCOPES } from '@risk/contracts';
import { createPrisma, databaseName, dropDatabase } from '@risk/db';
import { analyze, finalize } from '@risk/enrichment';
import { createApp, startProjector } from '@risk/public-api';
import {
  cpuDelta,
  cpuMs,
  cpuSnapshot,
  createScratchDatabase,
  deleteRedisPrefix,
  freePort,
  loadAverage,
  machineBusyMs,
  pidsWhere,
  runBench,
  TEST_REDIS_URL,
} from '@risk/testing';
import { defaultThreads } from '@risk/thread-pool';
import { Queue } from 'bullmq';
import { loadDefaultFeeds } from '../src/advisories/default-feeds';
import { enrichAsset, type EnrichmentTimings } from '../src/jobs/enrichment';
import { printReport, type ColdDrainFigures, type DrainFigures } from './report';
import { loadSamples, variant } from './samples';

const ASSETS = Number(process.env.BENCH_ASSETS ?? 2000);
const VERSIONS = Number(process.env.BENCH_VERSIONS ?? 5);
const LOW_LOAD = Number(process.env.BENCH_LOW_LOAD ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 4000);
const COLD = Number(process.env.BENCH_COLD ?? 1);
const WARM = process.env.BENCH_WARM !== '0';
// worker settings per cold round, alternated: `KEY=value KEY=value;KEY=value`; none: the defaults
const COLD_VARIANTS = (process.env.BENCH_COLD_VARIANTS ?? '').split(';').map((set) =>
  Object.fromEntries(
    set
      .split(/\s+/)
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  ),
);
const SEQUENTIAL = 300;

/** Each thread's CPU ms so far (utime + stime of /proc/<pid>/task/<tid>/stat), by thread id. */
function threadCpu(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), ((Number(fields[11]) + Number(fields[12])) * 1000) / 100); // clock ticks of 10 ms
    }
  } catch {
    // the process is gone: what was read so far
  }
  return out;
}

/**
 * The worker's CPU over a drain, by thread: the main thread (its pid), the `analysisThreads` busiest other threads
 * (the analysis pool's), and the rest (V8's compiler and GC helpers, libuv's pool).
 */
function threadSplit(pid: number, before: Map<number, number>, analysisThreads: number) {
  const deltas = [...threadCpu(pid)].map(([tid, ms]) => ({ tid, ms: ms - (before.get(tid) ?? 0) }));
  const main = deltas.find((d) => d.tid === pid)?.ms ?? 0;
  const others = deltas.filter((d) => d.tid !== pid).sort((a, b) => b.ms - a.ms);
  const analysis = others.slice(0, analysisThreads).reduce((a, d) => a + d.ms, 0);
  const rest = others.slice(analysisThreads).reduce((a, d) => a + d.ms, 0);
  return { main, analysis, rest };
}

async function waitForHealth(port: number, child: ChildProcess): Promise<void> {
  // two minutes: the worker's start-up includes its analysis threads' warm-up, slow on a loaded machine
  for (const t0 = performance.now(); performance.now() - t0 < 120_000;) {
    if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('worker did not become healthy');
}

async function main() {
  const startLoad = loadAverage();
  const databaseUrl = await createScratchDatabase('bench', { durable: true });
  const dbName = databaseName(databaseUrl);
  const prefix = `bench-${randomUUID().slice(0, 8)}`;
  const secretsKey = randomUUID().replace(/-/g, '') + randomUUID().replace(/-/g, '');
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: prefix,
    SECRETS_KEY: secretsKey,
    LOG_LEVEL: 'error',
  });
  const logger = createLogger({ service: 'bench', level: 'error' });
  const db = createPrisma({ url: databaseUrl, applicationName: 'bench', max: 10 });
  const producer = new QueueProducer({ url: config.REDIS_URL, prefix }, 'bench');
  const queue = new Queue(JOBS.enrichment.queue, { connection: producer.connection, prefix });
  const deps = { config, prisma: db.prisma, pool: db.pool, producer, logger };
  // the bulk's assets are projected by the API process's projector, as in production (docs/reliability.md)
  const projector = startProjector(deps);
  const app = createApp({ ...deps, projector });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { key } = await mintApiKey(db.prisma, { org_id: 'org_bench', scopes: [...SCOPES], livemode: true });
  const samples = loadSamples();
  const post = async (pathName: string, body: unknown) => {
    const res = await fetch(`${base}${pathName}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Idempotency-Key': randomUUID(), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 202) throw new Error(`${pathName} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const concurrency = Number(process.env.ENRICHMENT_CONCURRENCY ?? config.ENRICHMENT_CONCURRENCY);
  const analysisThreads = Number(process.env.ENRICHMENT_THREADS ?? defaultThreads());

  let worker: ChildProcess | undefined;
  try {
    // the shipped advisory feeds are loaded before the clock, as in an established deployment: on a database
    // with no PyPA record the worker would import the archive in the background during the drain and then
    // re-enrich what it changed (docs/performance.md "Where the time goes")
    const feeds = await loadDefaultFeeds({ pool: db.pool });
    console.log(
      `advisory feeds loaded before the clock: ${feeds.map((f) => `${f.source} ${f.inserted} records in ${Math.round(f.ms)} ms`).join(', ')}`,
    );
    // ── 1. drains ──
    const ingest = async (indices: number[], v: number) => {
      for (let start = 0; start < indices.length; start += 500)
        await post('/v1/signals/bulk', {
          signals: indices.slice(start, start + 500).map((i) => variant(samples, i, v)),
        });
    };
    // the API enqueues after commit: wait until `n` jobs are on the queue (a paused queue keeps them waiting)
    const untilQueued = async (n: number) => {
      for (let i = 0; ; i++) {
        const c = await queue.getJobCounts('waiting', 'prioritized', 'delayed');
        if (c.waiting! + c.prioritized! + c.delayed! >= n) return;
        if (i > 300) throw new Error(`only ${JSON.stringify(c)} jobs queued for ${n} signals`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    // every asset enriched and nothing left on the queue, polled every 20 ms: the queue's counts (Redis) first, the
    // assets (a count over the table, ~1.7 ms of Postgres at 10,000 assets) only once the queue is empty, so the
    // bench's polling does not take the measured worker's CPU
    const untilDrained = async (since: number) => {
      for (;;) {
        const c = await queue.getJobCounts('waiting', 'active', 'prioritized', 'delayed');
        if (c.waiting! + c.active! + c.prioritized! + c.delayed! === 0) {
          const [{ n }] = (
            await db.pool.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM assets WHERE enrichment_status <> 'enriched'`,
            )
          ).rows as [{ n: number }];
          if (n === 0) return;
        }
        if (performance.now() - since > 900_000) throw new Error('drain did not finish in 15 minutes');
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const nodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean); // e.g. --cpu-prof
    // a fresh worker process; resolves when its /healthz answers, with how long that took
    // `settings` are the worker's environment, but for NODE_ARGS: node's own arguments for this worker (V8 flags)
    const startWorker = async ({ NODE_ARGS, ...settings }: Record<string, string> = {}) => {
      // a free port per worker: the bench starts several, one after another, beside other processes
      const workerHealthPort = await freePort();
      const spawned = performance.now();
      const args = [...nodeArgs, ...(NODE_ARGS ?? '').split(',').filter(Boolean)];
      worker = spawn(process.execPath, [...args, '--import', 'tsx', path.join(__dirname, '..', 'src', 'main.ts')], {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          REDIS_URL: config.REDIS_URL,
          REDIS_PREFIX: prefix,
          SECRETS_KEY: secretsKey,
          ENRICHMENT_CONCURRENCY: String(concurrency),
          LOG_LEVEL: 'warn',
          WORKER_HEALTH_PORT: String(workerHealthPort),
          MAINTENANCE_INTERVAL_MS: '3600000',
          ...settings,
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      await waitForHealth(workerHealthPort, worker);
      return { startupMs: performance.now() - spawned, startupCpuMs: cpuMs(worker.pid!) };
    };
    const stopWorker = async () => {
      const w = worker!;
      worker = undefined;
      w.kill('SIGTERM');
      if (w.exitCode === null) await new Promise((r) => w.once('exit', r));
    };
    // the worker's Postgres backends (and autovacuum on this database), not the bench's own polling
    const pgPids = async () =>
      (
        await db.pool.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND (application_name = 'worker' OR backend_type = 'autovacuum worker')`,
          [dbName],
        )
      ).rows.map((r) => r.pid);
    const redisPids = pidsWhere((c) => c.startsWith('redis-server'));
    const range = (from: number, n: number) => Array.from({ length: n }, (_, k) => from + k);
    /**
     * One timed drain: `versions` signals for each of the assets `indices` (new fingerprints) are ingested while
     * the queue is paused (or, cold, before a fresh worker starts with `cold` settings), then timed from the resume
     * (cold: the worker's first healthy /healthz) until every asset is enriched and the queue is empty.
     */
    const timedDrain = async (
      indices: number[],
      versions: number,
      cold?: Record<string, string>,
    ): Promise<DrainFigures & { startupMs?: number; startupCpuMs?: number }> => {
      if (cold && worker) await stopWorker();
      if (worker) await queue.pause();
      await queue.clean(0, 1_000_000, 'completed'); // what the jobs report is this drain's only
      const t0 = performance.now();
      for (let v = 0; v < versions; v++) await ingest(indices, v);
      const ingestMs = performance.now() - t0;
      const signals = indices.length * versions;
      await untilQueued(signals);
      const queued = await queue.count();
      console.log(
        `ingested ${signals} signals over ${indices.length} new assets (${samples.length} sample manifests, ${versions} version${versions > 1 ? 's' : ''} each) in ${(ingestMs / 1000).toFixed(1)} s; ${queued} enrichment jobs queued`,
      );
      // cold: the clock starts when the worker answers /healthz (process start-up and tsx compilation are not
      // enrichment time; the worker may have taken a few jobs in the milliseconds before)
      const paused = worker !== undefined;
      const startup = worker ? undefined : await startWorker(cold);
      const cpuBefore = {
        machine: machineBusyMs(),
        worker: cpuMs(worker!.pid!),
        threads: threadCpu(worker!.pid!),
        pg: cpuSnapshot(await pgPids()),
        redis: cpuSnapshot(redisPids),
      };
      // jobs the worker finished before the clock started (cold: before its health server answered): counted
      const [{ early }] = (
        await db.pool.query<{ early: number }>(
          `SELECT count(*)::int AS early FROM assets WHERE enrichment_status = 'enriched' AND fingerprint = ANY($1::text[])`,
          [indices.map((i) => variant(samples, i, 0).fingerprint)],
        )
      ).rows as [{ early: number }];
      if (paused) await queue.resume();
      const drainStart = performance.now();
      await untilDrained(drainStart);
      const seconds = (performance.now() - drainStart) / 1000;
      const cpu = {
        machine: machineBusyMs() - cpuBefore.machine,
        worker: cpuMs(worker!.pid!) - cpuBefore.worker,
        threads: threadSplit(worker!.pid!, cpuBefore.threads, analysisThreads),
        pg: cpuDelta(cpuBefore.pg, cpuSnapshot(await pgPids())),
        redis: cpuDelta(cpuBefore.redis, cpuSnapshot(redisPids)),
      };
      // what the jobs themselves reported (BullMQ keeps the return values of completed jobs)
      const completed = await queue.getJobs(['completed'], 0, -1);
      const failed = await queue.getJobCountByTypes('failed');
      const outcomes = new Map<string, number>();
      const timings: EnrichmentTimings[] = [];
      for (const j of completed) {
        const rv = j.returnvalue as { outcome: string; reason?: string; timings?: EnrichmentTimings } | null;
        const label = rv ? (rv.outcome === 'skipped' ? `skipped ${rv.reason}` : rv.outcome) : 'no result';
        outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
        if (rv?.timings) timings.push(rv.timings);
      }
      return { assets: indices.length, signals, queued, outcomes, failed, seconds, early, timings, cpu, ...startup };
    };

    // the cold drains: fresh worker processes on a queued backlog, settings alternated round by round
    const coldBase = 2 * ASSETS + LOW_LOAD + WARMUP;
    const cold: ColdDrainFigures[] = [];
    for (let r = 0; r < COLD; r++) {
      const settings = COLD_VARIANTS[r % COLD_VARIANTS.length]!;
      const label = Object.keys(settings).length
        ? Object.entries(settings)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')
        : 'defaults';
      const d = await timedDrain(range(coldBase + r * ASSETS, ASSETS), 1, settings);
      cold.push({ ...d, label, startupMs: d.startupMs!, startupCpuMs: d.startupCpuMs! });
      console.log(
        `cold drain ${r + 1}/${COLD} (${label}): ${(d.assets / d.seconds).toFixed(0)} assets/s, worker CPU ${(d.cpu.worker / d.assets).toFixed(2)} ms per asset (main ${(d.cpu.threads.main / d.assets).toFixed(2)}, analysis ${(d.cpu.threads.analysis / d.assets).toFixed(2)}, rest ${(d.cpu.threads.rest / d.assets).toFixed(2)}), start-up ${(d.startupMs! / 1000).toFixed(2)} s (${(d.startupCpuMs! / 1000).toFixed(2)} s CPU)`,
      );
      await stopWorker();
    }

    let drain: DrainFigures | undefined;
    let backlog: DrainFigures | undefined;
    const latencies: number[] = [];
    if (WARM && WARMUP > 0) {
      // untimed: the worker's first assets (other fingerprints than the drains' and the low-load phase's)
      await startWorker();
      const w0 = performance.now();
      await ingest(range(2 * ASSETS + LOW_LOAD, WARMUP), 0);
      await untilDrained(w0);
      const warmS = (performance.now() - w0) / 1000;
      console.log(
        `warm-up (untimed): ${WARMUP} other assets ingested and enriched by the fresh worker in ${warmS.toFixed(2)} s (${Math.round(WARMUP / warmS)} assets/s on its first assets, ingest included)`,
      );
    }
    // the target's drain: new assets, one signal each; then a backlog of new assets with several versions each
    // (superseded jobs, as when signals arrive faster than the worker drains)
    if (WARM) drain = await timedDrain(range(0, ASSETS), 1);
    if (WARM && VERSIONS > 1) backlog = await timedDrain(range(ASSETS, ASSETS), VERSIONS);
    // ── 2. low-load latency: one signal at a time, 202 → enriched ──
    for (let i = 0; WARM && i < LOW_LOAD; i++) {
      const body = variant(samples, 2 * ASSETS + i, 0);
      await post('/v1/signals', body);
      const accepted = performance.now();
      for (;;) {
        const { rows } = await db.pool.query<{ enrichment_status: string }>(
          'SELECT enrichment_status FROM assets WHERE fingerprint = $1',
          [body.fingerprint],
        );
        if (rows[0]?.enrichment_status === 'enriched') break;
        if (performance.now() - accepted > 30_000) throw new Error(`${body.fingerprint} was not enriched within 30 s`);
        await new Promise((r) => setTimeout(r, 1));
      }
      latencies.push(performance.now() - accepted);
      await new Promise((r) => setTimeout(r, 10));
    }
    latencies.sort((a, b) => a - b);

    // ── 3. where the time goes: sequential re-enrichment in this process, and the engine alone ──
    if (worker) await stopWorker();
    const seqAssets = (
      await db.pool.query<{ fingerprint: string; latest_digest: string }>(
        `SELECT fingerprint, latest_digest FROM assets WHERE fingerprint LIKE 'bench:%' ORDER BY (substr(fingerprint, 7))::int LIMIT $1`,
        [SEQUENTIAL],
      )
    ).rows;
    await db.pool.query(`UPDATE assets SET enrichment_status = 'stale' WHERE fingerprint = ANY($1::text[])`, [
      seqAssets.map((a) => a.fingerprint),
    ]);
    const deps = { config, prisma: db.prisma, pool: db.pool, producer, logger };
    const seqTimings: EnrichmentTimings[] = [];
    const seqWall: number[] = [];
    const s0 = performance.now();
    for (const a of seqAssets) {
      const j0 = performance.now();
      const out = await enrichAsset(deps, {
        livemode: true,
        fingerprint: a.fingerprint,
        digest: a.latest_digest,
        reason: 'bench',
      });
      if (out.outcome === 'enriched') seqTimings.push(out.timings);
      seqWall.push(performance.now() - j0);
    }
    seqWall.sort((a, b) => a - b);
    const seqWallPerAsset = (performance.now() - s0) / seqAssets.length;
    // baseline: the pure engine (analyze + finalize) over the same manifests, same process, warmed up
    const inputs = seqAssets.map((_, i) => variant(samples, i, 0));
    const ctx = {
      threats: [],
      publisher: { org_count: 1, signal_count: VERSIONS, first_seen: new Date().toISOString() },
      now: new Date().toISOString(),
    };
    const runEngine = () => {
      for (const s of inputs) {
        finalize(
          analyze({
            fingerprint: s.fingerprint,
            asset_type: s.asset_type,
            name: s.name,
            version: s.version,
            raw_manifest: s.raw_manifest,
            metadata: s.metadata,
          }),
          ctx,
        );
      }
    };
    runEngine();
    const e0 = performance.now();
    for (let r = 0; r < 3; r++) runEngine();
    const engineOnlyMs = (performance.now() - e0) / (3 * inputs.length);

    printReport({
      assets: ASSETS,
      concurrency,
      startLoad,
      cold,
      drain,
      backlog,
      versions: VERSIONS,
      lowLoad: latencies,
      sequential: { timings: seqTimings, wall: seqWall, wallPerAsset: seqWallPerAsset },
      engineOnlyMs,
    });
  } finally {
    worker?.kill('SIGKILL');
    server.close();
    await projector.stop();
    await queue.close().catch(() => undefined);
    await producer.close();
    await db.close();
    await dropDatabase(databaseUrl).catch(() => undefined);
    await deleteRedisPrefix(TEST_REDIS_URL, prefix).catch(() => undefined);
  }
}

runBench(main);
