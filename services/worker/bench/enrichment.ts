/**
 * `pnpm bench:enrichment` — enrichment throughput and latency with ONE real worker process.
 *
 * 1. Drain: 10,000 signals over 2,000 assets (5 content versions each) are ingested through the public
 *    API's bulk route (each 202 = signals committed, jobs queued); then one worker process
 *    (`node --import tsx src/main.ts`) is started and timed from its first healthy /healthz until every
 *    asset is enriched and the queue is empty. Manifests: the real files of the folder BENCH_SAMPLES names
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
 * Env: BENCH_ASSETS (2000), BENCH_VERSIONS (5), BENCH_LOW_LOAD (200), BENCH_SAMPLES (manifest dir),
 * ENRICHMENT_CONCURRENCY (passed to the worker; its default otherwise), BENCH_WORKER_NODE_ARGS (e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the worker).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLogger, JOBS, loadConfig, mintApiKey, QueueProducer, SCOPES } from '@risk/common';
import { createPrisma, databaseName, dropDatabase } from '@risk/db';
import { analyze, finalize, type AssetType } from '@risk/enrichment';
import { createApp } from '@risk/public-api';
import { createScratchDatabase, deleteRedisPrefix, TEST_REDIS_URL } from '@risk/testing';
import { Queue } from 'bullmq';
import { enrichAsset, type EnrichmentTimings } from '../src/jobs/enrichment';

const ASSETS = Number(process.env.BENCH_ASSETS ?? 2000);
const VERSIONS = Number(process.env.BENCH_VERSIONS ?? 5);
const LOW_LOAD = Number(process.env.BENCH_LOW_LOAD ?? 200);
const SEQUENTIAL = 300;
const SAMPLES =
  process.env.BENCH_SAMPLES ?? path.resolve(__dirname, '..', '..', '..', '..', 'shared', 'samples', 'manifests');

interface Sample {
  file: string;
  asset_type: AssetType;
  raw: string;
}

function loadSamples(): Sample[] {
  const files = fs.readdirSync(SAMPLES).filter((f) => /^\d\d-/.test(f));
  if (files.length === 0) throw new Error(`no sample manifests in ${SAMPLES} (set BENCH_SAMPLES)`);
  return files.map((file) => ({
    file,
    asset_type: file.includes('mcp') ? 'mcp_server' : 'model',
    raw: fs.readFileSync(path.join(SAMPLES, file), 'utf8'),
  }));
}

/** Asset i, content version v: a valid variation of one real sample. */
function variant(samples: Sample[], i: number, v: number) {
  const s = samples[i % samples.length]!;
  const version = `${1 + (i % 3)}.${i % 10}.${v}`;
  const base = s.file.replace(/^\d\d-/, '').replace(/\.(json|toml|md|txt)$/, '');
  let raw: string;
  if (s.file.endsWith('.json')) {
    const doc = JSON.parse(s.raw) as Record<string, unknown>;
    if (typeof doc.name === 'string') doc.name = `${doc.name}-${i}`;
    if (typeof doc.version === 'string') doc.version = version;
    else doc.bench_revision = v; // config.json, .mcp.json, weight index: an extra key, still valid
    raw = JSON.stringify(doc, null, 2);
  } else if (s.file.endsWith('.toml')) {
    raw = s.raw
      .replace(/^name = "([^"]+)"/m, `name = "$1-${i}"`)
      .replace(/^version = "[^"]*"/m, `version = "${version}"`);
  } else {
    raw = `${s.raw.trimEnd()}\n\nRevision ${v} of bench asset ${i}.\n`;
  }
  return {
    fingerprint: `bench:${i}`,
    asset_type: s.asset_type,
    org_id: 'org_bench',
    observed_at: Math.floor(Date.now() / 1000) - 60,
    name: `bench-org/${base}-${i}`,
    version,
    raw_manifest: raw,
    metadata: {
      collector: 'bench',
      files:
        s.asset_type === 'model'
          ? v % 2
            ? ['config.json', 'model.safetensors']
            : ['config.json', 'pytorch_model.bin']
          : [],
    },
  };
}

async function waitForHealth(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
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

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

// ── CPU accounting from /proc (Linux; figures are skipped elsewhere) ──
const TICK_MS = 10; // USER_HZ = 100 on Linux
function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime + stime
  } catch {
    return NaN;
  }
}
function pidsWhere(pred: (cmdline: string) => boolean): number[] {
  try {
    return fs
      .readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return pred(fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' '));
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}
/** busy CPU time of the whole machine (all processes, all cores) */
function machineBusyMs(): number {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0); // idle + iowait
    return (sum(cpu.slice(0, 8)) - idle) * TICK_MS;
  } catch {
    return NaN;
  }
}
function cpuSnapshot(pids: number[]): Map<number, number> {
  return new Map(pids.map((p) => [p, cpuMs(p)]));
}
function cpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) if (Number.isFinite(ms)) total += ms - (before.get(pid) ?? 0);
  return total;
}

async function main() {
  const databaseUrl = await createScratchDatabase('bench');
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
  const app = createApp({ config, prisma: db.prisma, pool: db.pool, producer, logger });
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

  let worker: ChildProcess | undefined;
  const workerHealthPort = 30000 + Math.floor(Math.random() * 20000);
  try {
    // ── 1. drain ──
    const t0 = performance.now();
    for (let v = 0; v < VERSIONS; v++) {
      for (let start = 0; start < ASSETS; start += 500) {
        const batch = Array.from({ length: Math.min(500, ASSETS - start) }, (_, k) => variant(samples, start + k, v));
        await post('/v1/signals/bulk', { signals: batch });
      }
    }
    const ingestMs = performance.now() - t0;
    // the API enqueues after commit; wait until every job is on the queue before the worker starts
    const signals = ASSETS * VERSIONS;
    for (let i = 0; ; i++) {
      const counts = await queue.getJobCounts('waiting', 'prioritized', 'delayed');
      if (counts.waiting! + counts.prioritized! + counts.delayed! >= signals) break;
      if (i > 300) throw new Error(`only ${JSON.stringify(counts)} jobs queued for ${signals} signals`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const queued = await queue.count();
    console.log(
      `ingested ${signals} signals over ${ASSETS} assets (${samples.length} sample manifests, ${VERSIONS} versions each) in ${f1(ingestMs / 1000)} s; ${queued} enrichment jobs queued`,
    );

    const nodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean); // e.g. --cpu-prof
    worker = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(__dirname, '..', 'src', 'main.ts')], {
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
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    // the clock starts when the worker answers /healthz (process start-up and tsx compilation are not
    // enrichment time; the worker may have taken a few jobs in the milliseconds before)
    await waitForHealth(workerHealthPort, worker);
    // the worker's Postgres backends (and autovacuum on this database), not the bench's own polling
    const pgPids = async () =>
      (
        await db.pool.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND (application_name = 'worker' OR backend_type = 'autovacuum worker')`,
          [dbName],
        )
      ).rows.map((r) => r.pid);
    const redisPids = pidsWhere((c) => c.startsWith('redis-server'));
    const cpuBefore = {
      machine: machineBusyMs(),
      worker: cpuMs(worker.pid!),
      pg: cpuSnapshot(await pgPids()),
      redis: cpuSnapshot(redisPids),
    };
    // jobs the worker finished before its health server answered are not in the timed window: count them
    const [{ early }] = (
      await db.pool.query<{ early: number }>(
        `SELECT count(*)::int AS early FROM assets WHERE enrichment_status = 'enriched'`,
      )
    ).rows as [{ early: number }];
    const drainStart = performance.now();
    for (;;) {
      const [{ n }] = (
        await db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM assets WHERE enrichment_status <> 'enriched'`,
        )
      ).rows as [{ n: number }];
      if (n === 0) {
        const c = await queue.getJobCounts('waiting', 'active', 'prioritized', 'delayed');
        if (c.waiting! + c.active! + c.prioritized! + c.delayed! === 0) break;
      }
      if (performance.now() - drainStart > 900_000) throw new Error(`drain did not finish: ${n} assets left`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const drainS = (performance.now() - drainStart) / 1000;
    const cpu = {
      machine: machineBusyMs() - cpuBefore.machine,
      worker: cpuMs(worker.pid!) - cpuBefore.worker,
      pg: cpuDelta(cpuBefore.pg, cpuSnapshot(await pgPids())),
      redis: cpuDelta(cpuBefore.redis, cpuSnapshot(redisPids)),
    };
    const assetsPerS = ASSETS / drainS;

    // what the jobs themselves reported (BullMQ keeps the return values of completed jobs)
    const completed = await queue.getJobs(['completed'], 0, -1);
    const failed = await queue.getJobCountByTypes('failed');
    const outcomes = new Map<string, number>();
    const drainTimings: EnrichmentTimings[] = [];
    for (const j of completed) {
      const rv = j.returnvalue as { outcome: string; reason?: string; timings?: EnrichmentTimings } | null;
      const label = rv ? (rv.outcome === 'skipped' ? `skipped ${rv.reason}` : rv.outcome) : 'no result';
      outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
      if (rv?.timings) drainTimings.push(rv.timings);
    }

    // ── 2. low-load latency: one signal at a time, 202 → enriched ──
    const latencies: number[] = [];
    for (let i = 0; i < LOW_LOAD; i++) {
      const body = variant(samples, ASSETS + i, 0);
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
    worker.kill('SIGTERM');
    await new Promise((r) => worker!.once('exit', r));
    worker = undefined;
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
    const s0 = performance.now();
    for (const a of seqAssets) {
      const out = await enrichAsset(deps, {
        livemode: true,
        fingerprint: a.fingerprint,
        digest: a.latest_digest,
        reason: 'bench',
      });
      if (out.outcome === 'enriched') seqTimings.push(out.timings);
    }
    const seqWallPerAsset = (performance.now() - s0) / seqAssets.length;
    // baseline: the pure engine (analyze + finalize) over the same manifests, same process, warmed up
    const inputs = seqAssets.map((_, i) => variant(samples, i, VERSIONS - 1));
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

    const avg = (ts: EnrichmentTimings[], k: keyof EnrichmentTimings) =>
      sum(ts.map((t) => t[k])) / Math.max(1, ts.length);
    const shares = (ts: EnrichmentTimings[]) => {
      const r = avg(ts, 'read_ms');
      const e = avg(ts, 'engine_ms');
      const w = avg(ts, 'write_ms');
      const all = r + e + w;
      return `read ${f2(r)} + engine ${f2(e)} + write ${f2(w)} = ${f2(all)} ms → pure engine ${((100 * e) / all).toFixed(0)} %, database reads ${((100 * r) / all).toFixed(0)} %, database writes ${((100 * w) / all).toFixed(0)} %`;
    };
    const cpuTotal = cpu.worker + cpu.pg + cpu.redis;

    console.log(
      `\n── enrichment benchmark: one worker process, ENRICHMENT_CONCURRENCY ${concurrency}, ${ASSETS} assets ──`,
    );
    console.log(
      `drain: ${signals} signals → ${queued} jobs (${[...outcomes].map(([k, n]) => `${n} ${k}`).join(', ')}${failed ? `, ${failed} failed` : ''})`,
    );
    console.log(
      `       in ${f2(drainS)} s → ${assetsPerS.toFixed(0)} assets/s, ${(queued / drainS).toFixed(0)} jobs/s (target ≥ 300 assets/s); ${early} assets were already enriched when the clock started`,
    );
    console.log(
      `low load (${LOW_LOAD} signals one at a time), 202 → enriched: p50 ${f1(percentile(latencies, 50))} ms, p99 ${f1(percentile(latencies, 99))} ms, max ${f1(latencies.at(-1)!)} ms (target p50 < 250 ms)`,
    );
    console.log(
      `per enriched asset, during the drain (${drainTimings.length} jobs, concurrent): ${shares(drainTimings)}`,
    );
    console.log(
      `per enriched asset, sequential (${seqTimings.length} jobs, no contention, ${f2(seqWallPerAsset)} ms wall each): ${shares(seqTimings)}`,
    );
    if (Number.isFinite(cpuTotal) && cpuTotal > 0) {
      console.log(
        `CPU during the drain (${os.cpus().length} cores × ${f1(drainS)} s = ${f1(os.cpus().length * drainS)} s): worker ${f1(cpu.worker / 1000)} s (${((100 * cpu.worker) / (1000 * drainS)).toFixed(0)} % of a core), postgres ${f1(cpu.pg / 1000)} s, redis ${f1(cpu.redis / 1000)} s, everything else on the machine ${f1((cpu.machine - cpuTotal) / 1000)} s; per asset: worker ${f2(cpu.worker / ASSETS)} ms, postgres ${f2(cpu.pg / ASSETS)} ms, redis ${f2(cpu.redis / ASSETS)} ms`,
      );
    }
    const engineAssetsPerS = 1000 / engineOnlyMs;
    console.log(
      `baseline: pure engine alone ${f2(engineOnlyMs)} ms/asset (${engineAssetsPerS.toFixed(0)} assets/s on one core) → drain throughput = ${((100 * assetsPerS) / engineAssetsPerS).toFixed(0)} % of it; a sequential job costs ${f1(seqWallPerAsset / engineOnlyMs)}× the engine`,
    );
  } finally {
    worker?.kill('SIGKILL');
    server.close();
    await queue.close().catch(() => undefined);
    await producer.close();
    await db.close();
    await dropDatabase(databaseUrl).catch(() => undefined);
    await deleteRedisPrefix(TEST_REDIS_URL, prefix).catch(() => undefined);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
