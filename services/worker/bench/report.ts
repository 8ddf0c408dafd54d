/** What the enrichment benchmark (enrichment.ts) prints: every figure, and each as a ratio against a baseline of the run. */
import os from 'node:os';
import { loadAverage, percentile, sum } from '@risk/testing';
import type { EnrichmentTimings } from '../src/jobs/enrichment';

const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

/** One timed drain. */
export interface DrainFigures {
  assets: number;
  signals: number;
  queued: number;
  outcomes: Map<string, number>;
  failed: number;
  seconds: number;
  /** assets already enriched when the clock started */
  early: number;
  timings: EnrichmentTimings[];
  /** CPU ms during the drain; the worker's split by thread (enrichment.ts threadSplit) */
  cpu: {
    machine: number;
    worker: number;
    threads: { main: number; analysis: number; rest: number };
    pg: number;
    redis: number;
  };
}

/** A drain on a fresh worker process (a cold worker), with the settings it ran with. */
export interface ColdDrainFigures extends DrainFigures {
  label: string;
  /** spawn → first healthy /healthz (module loading, the analysis threads' start and warm-up) */
  startupMs: number;
  /** the worker's CPU over that start-up */
  startupCpuMs: number;
}

/** The figures of one run. */
export interface EnrichmentBenchFigures {
  assets: number;
  concurrency: number;
  startLoad: string;
  /** fresh workers on a queued backlog of new assets, one signal each */
  cold: ColdDrainFigures[];
  /** new assets, one signal each, on a warmed-up worker: the target's figure (absent with BENCH_WARM=0) */
  drain?: DrainFigures;
  /** new assets with `versions` signals each, all queued before the drain (superseded jobs) */
  backlog?: DrainFigures;
  versions: number;
  /** 202 → enriched, one signal at a time (ms) */
  lowLoad: number[];
  sequential: { timings: EnrichmentTimings[]; wall: number[]; wallPerAsset: number };
  engineOnlyMs: number;
}

const avg = (ts: EnrichmentTimings[], k: keyof EnrichmentTimings) => sum(ts.map((t) => t[k])) / Math.max(1, ts.length);
const shares = (ts: EnrichmentTimings[]) => {
  const r = avg(ts, 'read_ms');
  const e = avg(ts, 'engine_ms');
  const w = avg(ts, 'write_ms');
  const all = r + e + w;
  return `read ${f2(r)} + engine ${f2(e)} + write ${f2(w)} = ${f2(all)} ms → pure engine ${((100 * e) / all).toFixed(0)} %, database reads ${((100 * r) / all).toFixed(0)} %, database writes ${((100 * w) / all).toFixed(0)} %`;
};

/** The drain's lines: its jobs, its rate, and the CPU each process used per asset. */
function drainLines(label: string, d: DrainFigures): string[] {
  const { cpu, seconds, queued, outcomes, failed } = d;
  const cpuTotal = cpu.worker + cpu.pg + cpu.redis;
  const lines = [
    `${label}: ${d.signals} signals over ${d.assets} new assets → ${queued} jobs (${[...outcomes].map(([k, n]) => `${n} ${k}`).join(', ')}${failed ? `, ${failed} failed` : ''})`,
    `       in ${f2(seconds)} s → ${(d.assets / seconds).toFixed(0)} assets/s, ${(queued / seconds).toFixed(0)} jobs/s (target ≥ 500 assets/s); ${d.early} assets were already enriched when the clock started`,
  ];
  if (Number.isFinite(cpuTotal) && cpuTotal > 0)
    lines.push(
      `       CPU (${os.cpus().length} cores × ${f1(seconds)} s = ${f1(os.cpus().length * seconds)} s): worker ${f1(cpu.worker / 1000)} s (${((100 * cpu.worker) / (1000 * seconds)).toFixed(0)} % of a core), postgres ${f1(cpu.pg / 1000)} s, redis ${f1(cpu.redis / 1000)} s, everything else on the machine ${f1((cpu.machine - cpuTotal) / 1000)} s; per asset: worker ${f2(cpu.worker / d.assets)} ms, postgres ${f2(cpu.pg / d.assets)} ms, redis ${f2(cpu.redis / d.assets)} ms`,
      `       worker CPU per asset by thread: main ${f2(cpu.threads.main / d.assets)} ms, analysis threads ${f2(cpu.threads.analysis / d.assets)} ms, V8 helpers and the rest ${f2(cpu.threads.rest / d.assets)} ms`,
    );
  return lines;
}

export function printReport(r: EnrichmentBenchFigures): void {
  const { cold, drain, backlog, lowLoad: latencies, sequential, engineOnlyMs } = r;
  console.log(
    `\n── enrichment benchmark: one worker process, ENRICHMENT_CONCURRENCY ${r.concurrency}, ${r.assets} assets per drain ──`,
  );
  for (const c of cold) {
    for (const line of drainLines(`cold drain, fresh worker (${c.label})`, c)) console.log(line);
    console.log(
      `       start-up, spawn → first healthy /healthz: ${f2(c.startupMs / 1000)} s wall, ${f2(c.startupCpuMs / 1000)} s CPU; spawn → drained: ${(c.assets / (c.seconds + c.startupMs / 1000)).toFixed(0)} assets/s`,
    );
  }
  if (drain) for (const line of drainLines('drain (warm worker)', drain)) console.log(line);
  if (backlog) for (const line of drainLines(`backlog (${r.versions} versions each)`, backlog)) console.log(line);
  if (latencies.length > 0)
    console.log(
      `low load (${latencies.length} signals one at a time), 202 → enriched: p50 ${f1(percentile(latencies, 0.5))} ms, p99 ${f1(percentile(latencies, 0.99))} ms, max ${f1(Math.max(...latencies))} ms (target p50 ≤ 100 ms)`,
    );
  for (const c of cold)
    console.log(`per enriched asset, cold drain (${c.label}, ${c.timings.length} jobs): ${shares(c.timings)}`);
  if (drain)
    console.log(
      `per enriched asset, during the drain (${drain.timings.length} jobs, concurrent): ${shares(drain.timings)}`,
    );
  console.log(
    `per enriched asset, sequential (${sequential.timings.length} jobs, no contention, ${f2(sequential.wallPerAsset)} ms wall each): ${shares(sequential.timings)}`,
  );
  const engineAssetsPerS = 1000 / engineOnlyMs;
  console.log(
    `baseline: pure engine alone ${f2(engineOnlyMs)} ms/asset (${engineAssetsPerS.toFixed(0)} assets/s on one core); a sequential job costs ${f1(sequential.wallPerAsset / engineOnlyMs)}× the engine`,
  );
  // every figure as a ratio against a baseline of this run: the drains against the pure engine on one
  // core, the low-load latency against one sequential in-process job (read + engine + write, no queue); the
  // worker's CPU per asset, which a loaded machine moves less than the rates
  const rateLine = (label: string, d: DrainFigures, extra = '') =>
    `${label.padEnd(10)} ratio ${(d.assets / d.seconds / engineAssetsPerS).toFixed(2)} of the pure engine on one core (${(d.assets / d.seconds).toFixed(0)} vs ${engineAssetsPerS.toFixed(0)} assets/s; worker CPU ${f2(d.cpu.worker / d.assets)} ms per asset${extra})\n`;
  let out = `\nratios against this run's baselines (load average ${r.startLoad} at start, ${loadAverage()} at end):\n`;
  for (const c of cold) out += rateLine('cold drain', c, `; ${c.label}; target ≥ 300 assets/s`);
  if (drain) out += rateLine('drain', drain, '; target ≥ 500 assets/s');
  if (backlog) out += rateLine('backlog', backlog, `; ${r.versions} signals each`);
  if (drain && cold.length > 0)
    out += `cold/warm  ${cold.map((c) => (c.assets / c.seconds / (drain.assets / drain.seconds)).toFixed(2)).join(', ')} of the warm drain's rate\n`;
  if (latencies.length > 0) {
    const lowP50 = percentile(latencies, 0.5);
    const lowP99 = percentile(latencies, 0.99);
    const jobP50 = percentile(sequential.wall, 0.5);
    const jobP99 = percentile(sequential.wall, 0.99);
    out += `low load   ${(lowP50 / jobP50).toFixed(1)}× a sequential job at p50, ${(lowP99 / jobP99).toFixed(1)}× at p99 (202 → enriched p50 ${f1(lowP50)} / p99 ${f1(lowP99)} ms; job p50 ${f1(jobP50)} / p99 ${f1(jobP99)} ms; target p50 ≤ 100 ms)`;
  }
  console.log(out.trimEnd());
}
