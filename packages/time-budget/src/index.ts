// Wall-clock bounds in tests for "linear, not catastrophic" (docs/security.md "Linear-time parsing and caps") and
// for deadlines a test holds a real process to (docs/security.md "Analysis under a budget").
//
// A bound in milliseconds is a property of a machine, not of the code: the same linear parse that stays well under 1.5 s on a
// quiet developer machine took 1.76 s on a CI runner busy with two jest workers and failed a 1.5 s bound. What the
// tests mean is "within a small constant of linear", and a catastrophic case at 1 MiB (quadratic backtracking,
// exponential alias expansion) runs for minutes, far beyond any factor a busy machine explains. So a run over its
// budget is not a failure yet: the machine's current slowdown against a quiet reference machine is measured right
// there, the budget is scaled by it (capped, so no load excuses more than MAX_SLOWDOWN), and the call is tried again,
// best of three.
//
// The slowdown is the greater of two readings. Throughput: a fixed workload timed in samples of several passes, each
// long enough to outlast the head start a scheduler gives a process that has just woken (one ~9 ms pass fitted in it
// and read 1× with the load average at 18 on two cores). Contention: runnable tasks per core (./load.ts), which is
// what a latency bound (a health probe's slowest answer) meets when the process is descheduled, however fast it runs
// once it is on a core.
import { loadFactor } from './load';

/** Median of the calibration workload on the quiet 2-core development machine the budgets were set on. */
const REFERENCE_MS = 9;
/** No machine is slower than this in the budgets' eyes: 8 × 1.5 s still fails anything super-linear at 1 MiB. */
const MAX_SLOWDOWN = 8;
/** Calibration passes per sample: ~45 ms on the reference machine, past a woken process's head start. */
const PASSES_PER_SAMPLE = 5;
const ATTEMPTS = 3;

const CALIBRATION_TEXT = 'key: value # comment\n'.repeat(50_000);

/** A fixed CPU-bound pass over 1 MiB of text (a character loop and one regex scan, what the parsers do). */
function calibrationWorkload(): number {
  let h = 0;
  for (let i = 0; i < CALIBRATION_TEXT.length; i++) h = (h * 31 + CALIBRATION_TEXT.charCodeAt(i)) | 0;
  return h + (CALIBRATION_TEXT.match(/#[^\n]*/g)?.length ?? 0);
}

/** The calibration workload's median time per pass (five samples of PASSES_PER_SAMPLE passes) on `clock`, in ms. */
function calibrationMs(clock: () => number): number {
  calibrationWorkload(); // warm the JIT so the samples time the machine, not the compiler
  const perPass: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = clock();
    for (let pass = 0; pass < PASSES_PER_SAMPLE; pass++) calibrationWorkload();
    perPass.push((clock() - started) / PASSES_PER_SAMPLE);
  }
  perPass.sort((a, b) => a - b);
  return perPass[2]!;
}

/**
 * How much longer than on the reference machine a wall-clock bound must be now (the top of this file), in
 * [1, MAX_SLOWDOWN]: for bounds in wall time (a parse, a health probe's answer, a drain).
 */
export function currentSlowdown(): number {
  const throughput = calibrationMs(() => performance.now()) / REFERENCE_MS;
  return Math.min(MAX_SLOWDOWN, Math.max(1, throughput, loadFactor()));
}

/**
 * How much more CPU time than on the reference machine the same work takes now, in [1, MAX_SLOWDOWN]: for budgets
 * counted in CPU time (the analysis deadline, docs/security.md "Analysis under a budget"), which a busy machine does
 * not use up (it only makes them take longer in wall time), so neither the load nor the waits for a core count.
 */
export function cpuSlowdown(): number {
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  return Math.min(MAX_SLOWDOWN, Math.max(1, calibrationMs(cpuMs) / REFERENCE_MS));
}

export { loadFactor, scaledByLoad } from './load';

export interface Timed<T> {
  result: T;
  /** the best attempt's wall time */
  ms: number;
  /** the budget that attempt was held to (budgetMs × the machine's slowdown when it was measured) */
  budgetMs: number;
}

/**
 * Runs `run` and throws unless it finishes within `budgetMs` on the reference machine; see the top of this file for
 * how a busy machine is told apart from a slow algorithm.
 */
export function expectWithinBudget<T>(budgetMs: number, run: () => T): Timed<T> {
  let best = Number.POSITIVE_INFINITY;
  let budget = budgetMs;
  let result: T | undefined;
  for (let attempt = 0; attempt < ATTEMPTS && best >= budget; attempt++) {
    const started = performance.now();
    result = run();
    best = Math.min(best, performance.now() - started);
    if (best >= budget) budget = Math.max(budget, budgetMs * currentSlowdown());
  }
  if (!(best < budget)) {
    throw new Error(
      `took ${Math.round(best)} ms in the best of ${ATTEMPTS} attempts, over its budget of ${budgetMs} ms ` +
        `(${Math.round(budget)} ms after allowing for this machine's measured slowdown)`,
    );
  }
  return { result: result as T, ms: best, budgetMs: budget };
}
