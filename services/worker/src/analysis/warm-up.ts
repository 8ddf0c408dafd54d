import { performance } from 'node:perf_hooks';
import type { AnalysisPool, RunOptions } from './pool';
import type { WarmUpResult } from './task';

/**
 * The analysis threads' warm-up on start (docs/performance.md "A cold worker"): before the worker takes jobs, each
 * thread runs the engine over the warm-up samples (warm-up-samples.ts) for `cpuMs` of its CPU, so a worker that
 * autoscaling starts on a backlog does not spend its first thousands of jobs in V8's interpreter and baseline code.
 * It never blocks the worker for long: a warm-up task that fails (over its budget, a thread that cannot start) ends
 * the warm-up, and so does `deadlineMs` of wall time; the worker then starts cold, as it did before.
 */
interface WarmUpOutcome {
  /** every thread reported `cpuMs` spent */
  ok: boolean;
  /** threads that reported, and the CPU each spent warming up */
  threads: { thread: number; cpu_ms: number }[];
  wall_ms: number;
  /** why the warm-up ended early */
  error?: string;
}

interface WarmUpOptions {
  /** CPU each thread spends warming up; 0 skips the warm-up */
  cpuMs: number;
  /** wall time after which the worker stops waiting */
  deadlineMs: number;
  /** test-only: passed to every warm-up task (pool.ts RunOptions) */
  run?: RunOptions;
}

const CHUNK = (pool: AnalysisPool) => Math.max(1, Math.min(250, pool.timeoutMs / 2));

export async function warmUpAnalysis(pool: AnalysisPool, opts: WarmUpOptions): Promise<WarmUpOutcome> {
  const t0 = performance.now();
  const seen = new Map<number, number>();
  const outcome = (error?: string): WarmUpOutcome => ({
    ok: error === undefined,
    threads: [...seen].map(([thread, cpu_ms]) => ({ thread, cpu_ms: Math.round(cpu_ms) })),
    wall_ms: Math.round(performance.now() - t0),
    ...(error === undefined ? {} : { error }),
  });
  if (opts.cpuMs <= 0) return outcome();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), opts.deadlineMs);
    timer.unref();
  });
  try {
    // The pool hands a task to whichever thread is free, so one task per thread is posted at a time, and again
    // until every thread has reported its warm-up done (a thread already warm answers at once). A thread replaced
    // meanwhile (a new id) counts too: the bound is the deadline.
    while ([...seen.values()].filter((ms) => ms >= opts.cpuMs).length < pool.threads) {
      const round = Promise.all(
        Array.from(
          { length: pool.threads },
          () =>
            // short tasks: each within half the pool's CPU budget, so it is never cut short as over budget, and
            // reporting often, so a warm-up that meets the deadline on a busy machine still says how far it got
            pool.run('warm_up', [opts.cpuMs, CHUNK(pool)], opts.run) as Promise<WarmUpResult>,
        ),
      );
      const done = await Promise.race([round, deadline]);
      if (done === 'deadline') {
        round.catch(() => undefined); // the tasks finish or fail on their own; nobody waits for them
        return outcome(`not warm after ${opts.deadlineMs} ms`);
      }
      for (const r of done) seen.set(r.thread, r.cpu_ms);
    }
    return outcome();
  } catch (err) {
    return outcome(err instanceof Error ? err.message : String(err));
  } finally {
    clearTimeout(timer);
  }
}
