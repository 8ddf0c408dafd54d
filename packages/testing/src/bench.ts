/**
 * What the benchmarks share (services/public-api/bench, services/worker/bench; docs/performance.md): order
 * statistics, the machine's load, CPU time from /proc (Linux; NaN elsewhere) and the script wrapper.
 */
import fs from 'node:fs';
import os from 'node:os';

/** The p-quantile (0 ≤ p ≤ 1) of `xs` (any order); NaN for none. */
export const percentile = (xs: readonly number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;
export const median = (xs: readonly number[]): number => percentile(xs, 0.5);
export const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** The 1, 5 and 15 minute load averages, as printed beside every figure. */
export const loadAverage = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const TICK_MS = 10; // USER_HZ = 100 on Linux

/** CPU time (user + system) a process has used, in ms. */
export function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime + stime
  } catch {
    return NaN;
  }
}

/** The processes whose command line satisfies `pred`. */
export function pidsWhere(pred: (cmdline: string) => boolean): number[] {
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

/** Busy CPU time of the whole machine (all processes, all cores), in ms. */
export function machineBusyMs(): number {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0); // idle + iowait
    return (sum(cpu.slice(0, 8)) - idle) * TICK_MS;
  } catch {
    return NaN;
  }
}

export function cpuSnapshot(pids: readonly number[]): Map<number, number> {
  return new Map(pids.map((p) => [p, cpuMs(p)]));
}

/** CPU ms the processes of `after` used since `before` (processes gone in between are skipped). */
export function cpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) if (Number.isFinite(ms)) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** Runs a benchmark script's main: exit 0 when it resolves, the error's stack and exit 1 when it throws. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
