/** What the enrichment benchmark (enrichment.ts) prints: every figure, and each as a ratio against a baseline of the run. */
import os from 'node:os';
import { loadAverage, percentile, sum } from '@risk/testing';
import type { EnrichmentTimings } from '../src/jobs/enrichment';

const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

/** The figures of one run. */
export interface EnrichmentBenchFigures {
  assets: number;
  concurrency: number;
  startLoad: string;
  drain: {
    signals: number;
    queued: number;
    outcomes: Map<string, number>;
    failed: number;
    seconds: number;
    /** assets already enriched when the clock started */
    early: number;
    timings: EnrichmentTimings[];
    /** CPU ms during the drain */
    cpu: { machine: number; worker: number; pg: number; redis: number };
  };
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

export function printReport(r: EnrichmentBenchFigures): void {
  const { drain, lowLoad: latencies, sequential, engineOnlyMs, assets: ASSETS } = r;
  const { cpu, seconds: drainS, queued, outcomes, failed } = drain;
  const assetsPerS = ASSETS / drainS;
  const cpuTotal = cpu.worker + cpu.pg + cpu.redis;
  console.log(
    `\n── enrichment benchmark: one worker process, ENRICHMENT_CONCURRENCY ${r.concurrency}, ${ASSETS} assets ──`,
  );
  console.log(
    `drain: ${drain.signals} signals → ${queued} jobs (${[...outcomes].map(([k, n]) => `${n} ${k}`).join(', ')}${failed ? `, ${failed} failed` : ''})`,
  );
  console.log(
    `       in ${f2(drainS)} s → ${assetsPerS.toFixed(0)} assets/s, ${(queued / drainS).toFixed(0)} jobs/s (target ≥ 500 assets/s); ${drain.early} assets were already enriched when the clock started`,
  );
  console.log(
    `low load (${latencies.length} signals one at a time), 202 → enriched: p50 ${f1(percentile(latencies, 0.5))} ms, p99 ${f1(percentile(latencies, 0.99))} ms, max ${f1(Math.max(...latencies))} ms (target p50 ≤ 100 ms)`,
  );
  console.log(
    `per enriched asset, during the drain (${drain.timings.length} jobs, concurrent): ${shares(drain.timings)}`,
  );
  console.log(
    `per enriched asset, sequential (${sequential.timings.length} jobs, no contention, ${f2(sequential.wallPerAsset)} ms wall each): ${shares(sequential.timings)}`,
  );
  if (Number.isFinite(cpuTotal) && cpuTotal > 0) {
    console.log(
      `CPU during the drain (${os.cpus().length} cores × ${f1(drainS)} s = ${f1(os.cpus().length * drainS)} s): worker ${f1(cpu.worker / 1000)} s (${((100 * cpu.worker) / (1000 * drainS)).toFixed(0)} % of a core), postgres ${f1(cpu.pg / 1000)} s, redis ${f1(cpu.redis / 1000)} s, everything else on the machine ${f1((cpu.machine - cpuTotal) / 1000)} s; per asset: worker ${f2(cpu.worker / ASSETS)} ms, postgres ${f2(cpu.pg / ASSETS)} ms, redis ${f2(cpu.redis / ASSETS)} ms`,
    );
  }
  const engineAssetsPerS = 1000 / engineOnlyMs;
  console.log(
    `baseline: pure engine alone ${f2(engineOnlyMs)} ms/asset (${engineAssetsPerS.toFixed(0)} assets/s on one core) → drain throughput = ${((100 * assetsPerS) / engineAssetsPerS).toFixed(0)} % of it; a sequential job costs ${f1(sequential.wallPerAsset / engineOnlyMs)}× the engine`,
  );
  // every figure as a ratio against a baseline of this run (issue 14): the drain against the pure engine on one
  // core, the low-load latency against one sequential in-process job (read + engine + write, no queue)
  const lowP50 = percentile(latencies, 0.5);
  const lowP99 = percentile(latencies, 0.99);
  const jobP50 = percentile(sequential.wall, 0.5);
  const jobP99 = percentile(sequential.wall, 0.99);
  console.log(
    `\nratios against this run's baselines (load average ${r.startLoad} at start, ${loadAverage()} at end):\n` +
      `drain      ratio ${(assetsPerS / engineAssetsPerS).toFixed(2)} of the pure engine on one core (${assetsPerS.toFixed(0)} vs ${engineAssetsPerS.toFixed(0)} assets/s; target ≥ 500 assets/s)\n` +
      `low load   ${(lowP50 / jobP50).toFixed(1)}× a sequential job at p50, ${(lowP99 / jobP99).toFixed(1)}× at p99 (202 → enriched p50 ${f1(lowP50)} / p99 ${f1(lowP99)} ms; job p50 ${f1(jobP50)} / p99 ${f1(jobP99)} ms; target p50 ≤ 100 ms)`,
  );
}
