/**
 * Profiling aid (not part of `pnpm bench`): runs one scenario against the app and reports node and
 * Postgres CPU per request and the pg statements per request with their average time.
 *   tsx bench/profile.ts post|get|bulk [batches]|postratio|getratio|lookup
 * postratio/getratio alternate the API and the bench's express baseline (3 rounds) with node CPU per
 * request of each. PROFILE_CPU=<file.cpuprofile> writes a V8 CPU profile of the measured window only;
 * PROFILE_EXISTING=1 creates the POST scenario's assets first (re-observations instead of new assets). `lookup` times
 * the 500-fingerprint look-up of `pnpm bench`, one request at a time, over assets it creates first.
 */
import { randomUUID } from 'node:crypto';
import { listenWithLimits, closeServer } from '@risk/common/server';
import { cpuMs as processCpuMs, runBench } from '@risk/testing';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { benchSignal, startBenchApi, urlOf } from './workload';

const stats = new Map<string, { n: number; ms: number }>();
let counting = false;
function patch(proto: { query: unknown }) {
  if ((proto as { __patched?: boolean }).__patched) return;
  (proto as { __patched?: boolean }).__patched = true;
  const origQuery = proto.query;
  proto.query = function (this: Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
    const key = text.replace(/\s+/g, ' ').slice(0, 40);
    const t0 = performance.now();
    const record = () => {
      if (!counting) return;
      const s = stats.get(key) ?? { n: 0, ms: 0 };
      s.n++;
      s.ms += performance.now() - t0;
      stats.set(key, s);
    };
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      args[args.length - 1] = (...a: unknown[]) => {
        record();
        return (last as (...x: unknown[]) => unknown)(...a);
      };

      return (origQuery as any).apply(this, args);
    }

    const r = (origQuery as any).apply(this, args);
    if (counting && r && typeof r.then === 'function') {
      r.then(
        () => {
          const s = stats.get(key) ?? { n: 0, ms: 0 };
          s.n++;
          s.ms += performance.now() - t0;
          stats.set(key, s);
        },
        () => undefined,
      );
    }
    return r;
  };
}
patch(Client.prototype as unknown as { query: unknown });

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

async function main() {
  const mode = process.argv[2] ?? 'post';
  const api = await startBenchApi('profile', {
    beforeStart: async (ctx) => {
      const c = await ctx.db.pool.connect();
      patch(Object.getPrototypeOf(c));
      c.release();
    },
  });
  const { ctx, base, orgId, headers } = api;
  const run = randomUUID().slice(0, 8);
  const signal = (i: number) => benchSignal(orgId, i, run);
  // warm-up: asset 42 exists
  let r = await fetch(`${base}/v1/signals`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': randomUUID() },
    body: JSON.stringify(signal(42)),
  });
  if (r.status !== 202) throw new Error(await r.text());
  const fp = encodeURIComponent(`bench:${run}:42`);
  if (process.env.PROFILE_EXISTING) {
    // the POST scenario's 2000 assets exist already: measures re-observations instead of new assets
    let w = 0;
    await autocannon({
      url: `${base}/v1/signals`,
      method: 'POST',
      connections: 10,
      amount: 2000,
      requests: [
        {
          setupRequest: (req: object) => ({
            ...req,
            headers: { ...headers, 'idempotency-key': randomUUID() },
            body: JSON.stringify(signal(100_000 + w++)),
          }),
        },
      ],
    });
  }
  const lookupUrl = `${base}/v1/assets/lookup?${Array.from({ length: 500 }, (_, i) => `fingerprints=${encodeURIComponent(`bench:${run}:${i}`)}`).join('&')}`;
  if (mode === 'lookup') {
    // the 500 assets, projected (the look-up finds all of them) before the measured window
    const created = await fetch(`${base}/v1/signals/bulk`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': randomUUID() },
      body: JSON.stringify({ signals: Array.from({ length: 500 }, (_, i) => signal(i)) }),
    });
    if (created.status !== 202) throw new Error(await created.text());
    for (;;) {
      const body = (await (await fetch(lookupUrl, { headers })).json()) as { data: Array<{ match: string }> };
      if (body.data.every((d) => d.match === 'exact')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  // CPU accounting that other processes' load does not distort: this process, and the Postgres
  // backends of this scratch database (clock ticks from /proc)
  const pgCpuMs = async () => {
    const { rows } = await ctx.db.pool.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
    );
    // a backend gone in between counts 0
    const each = rows.map(({ pid }) => processCpuMs(pid));
    return each.reduce((total, ms) => total + (Number.isFinite(ms) ? ms : 0), 0);
  };
  const pg0 = await pgCpuMs();
  const cpu0 = process.cpuUsage();
  // PROFILE_CPU=<file.cpuprofile>: a V8 CPU profile of the measured window only (no start-up, no set-up)
  const inspector = process.env.PROFILE_CPU ? new (await import('node:inspector/promises')).Session() : undefined;
  if (inspector) {
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.start');
  }
  counting = true;
  let requests = 0;
  const t0 = performance.now();
  if (mode === 'getratio' || mode === 'postratio') {
    // alternates the API and the bench's express baseline, 3 rounds, to see a ratio through the noise
    const express = (await import('express')).default;
    const hello = express();
    hello.get('/hello', (_req, res) => {
      res.json({ hello: 'world' });
    });
    hello.post('/echo', express.json({ limit: '2mb' }), (req, res) => {
      res.status(202).json({ received: Object.keys(req.body as object).length });
    });
    const hs = await listenWithLimits(hello, { port: 0, host: '127.0.0.1' });
    const hbase = urlOf(hs);
    let n = 0;
    const post = (url: string, h: object) => ({
      url,
      method: 'POST' as const,
      requests: [
        {
          setupRequest: (req: object) => ({
            ...req,
            headers: { ...h, 'idempotency-key': randomUUID() },
            body: JSON.stringify(signal(100_000 + (n++ % 2000))),
          }),
        },
      ],
    });
    for (let round = 0; round < 3; round++) {
      const dur = Number(process.env.BENCH_SECONDS ?? 3);
      // node CPU per request (server and autocannon: they share this process) of each side
      let c = process.cpuUsage();
      const a = await autocannon({
        duration: dur,
        connections: 10,
        ...(mode === 'getratio' ? { url: `${base}/v1/assets/${fp}`, headers } : post(`${base}/v1/signals`, headers)),
      });
      const aCpu = cpuMs(process.cpuUsage(c)) / a.requests.total;
      c = process.cpuUsage();
      const b = await autocannon({
        duration: dur,
        connections: 10,
        ...(mode === 'getratio'
          ? { url: `${hbase}/hello` }
          : post(`${hbase}/echo`, { 'content-type': 'application/json' })),
      });
      const bCpu = cpuMs(process.cpuUsage(c)) / b.requests.total;
      process.stdout.write(
        `round ${round}: api ${a.requests.average} (p99 ${a.latency.p99}, node ${aCpu.toFixed(3)} ms/req) base ${b.requests.average} (node ${bCpu.toFixed(3)} ms/req) ratio ${(a.requests.average / b.requests.average).toFixed(2)}\n`,
      );
      requests += a.requests.total;
    }
    await closeServer(hs, { deadlineMs: 2000 });
  } else if (mode === 'lookup') {
    const ms: number[] = [];
    const until = performance.now() + Number(process.env.BENCH_SECONDS ?? 5) * 1000;
    while (performance.now() < until) {
      const s0 = performance.now();
      const res = await fetch(lookupUrl, { headers });
      await res.arrayBuffer();
      ms.push(performance.now() - s0);
      requests++;
    }
    ms.sort((a, b) => a - b);
    process.stdout.write(`lookup: p50 ${ms[Math.floor(ms.length / 2)]!.toFixed(1)} ms over ${ms.length} requests\n`);
  } else if (mode === 'bulk') {
    const batches = Number(process.argv[3] ?? 10);
    for (let b = 0; b < batches; b++) {
      const body = JSON.stringify({ signals: Array.from({ length: 500 }, (_, i) => signal(1000 + b * 500 + i)) });
      const s = performance.now();
      r = await fetch(`${base}/v1/signals/bulk`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': randomUUID() },
        body,
      });
      await r.arrayBuffer();
      process.stdout.write(`bulk ${b}: ${r.status} ${(performance.now() - s).toFixed(0)} ms\n`);
      requests++;
    }
  } else {
    let n = 0;
    const result = await autocannon({
      duration: Number(process.env.BENCH_SECONDS ?? 5),
      connections: 10,
      ...(mode === 'get'
        ? { url: `${base}/v1/assets/${fp}`, headers }
        : {
            url: `${base}/v1/signals`,
            method: 'POST',
            requests: [
              {
                setupRequest: (req: object) => ({
                  ...req,
                  headers: { ...headers, 'idempotency-key': randomUUID() },
                  body: JSON.stringify(signal(100_000 + (n++ % 2000))),
                }),
              },
            ],
          }),
    });
    requests = result.requests.total;
    process.stdout.write(
      `${mode}: ${result.requests.average} req/s p99 ${result.latency.p99} ms non2xx ${result.non2xx}\n`,
    );
  }
  counting = false;
  if (inspector) {
    const { profile } = await inspector.post('Profiler.stop');
    (await import('node:fs')).writeFileSync(process.env.PROFILE_CPU!, JSON.stringify(profile));
    inspector.disconnect();
  }
  const elapsed = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const pgMs = (await pgCpuMs()) - pg0;
  process.stdout.write(
    `${requests} requests in ${elapsed.toFixed(0)} ms; CPU per request: node ${((cpu.user + cpu.system) / 1000 / requests).toFixed(3)} ms (user ${(cpu.user / 1000 / requests).toFixed(3)}, incl. autocannon), postgres ${(pgMs / requests).toFixed(3)} ms\n`,
  );
  for (const [k, s] of [...stats.entries()].sort((a, b) => b[1].n - a[1].n)) {
    process.stdout.write(
      `${(s.n / requests).toFixed(2).padStart(6)}/req ${(s.ms / s.n).toFixed(2).padStart(7)} ms avg  ${k}\n`,
    );
  }
  await api.close();
}

runBench(main);
