import path from 'node:path';
import type { Config } from '@risk/common/config';
import { createBudgetedPool, defaultThreads, taskFile } from '@risk/thread-pool';
import type { AnalysisEntries, AnalysisTask, EntryName } from './task';

/**
 * The analysis thread pool (docs/security.md, "Analysis under a budget"). The engine is pure CPU on
 * untrusted content, so it runs off the worker's event loop: the main thread keeps answering /healthz,
 * renewing BullMQ locks, relaying the outbox and delivering webhooks whatever a manifest costs, and a
 * second core does analysis. Each task has a budget of its thread's CPU time, counted from the moment
 * the thread starts it; past it the thread is terminated and the task rejects with AnalysisTimeoutError.
 * The pool itself, and how the budget is counted, is @risk/thread-pool's budgeted pool.
 */
export const ANALYSIS_TIMEOUT = 'analysis_timeout';

export class AnalysisTimeoutError extends Error {
  override readonly name = 'AnalysisTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(ANALYSIS_TIMEOUT);
  }
}

export interface AnalysisPoolOptions {
  threads: number;
  timeoutMs: number;
}

export interface RunOptions {
  /** test-only: the thread spins this long before the task, as a pathological input would (testBusyMs) */
  busyMs?: number;
}

export interface AnalysisPool {
  readonly threads: number;
  /** the CPU budget of one task, in ms */
  readonly timeoutMs: number;
  /** Runs one engine entry in a thread; rejects with AnalysisTimeoutError past the deadline. */
  run<E extends EntryName>(
    entry: E,
    args: Parameters<AnalysisEntries[E]>,
    opts?: RunOptions,
  ): Promise<ReturnType<AnalysisEntries[E]>>;
  /** Terminates every thread (running tasks reject). */
  close(): Promise<void>;
}

// a .cjs entry that registers tsx, then requires task.ts (see the comment there)
export const TASK_ENTRY_TSX = path.join(__dirname, 'task-entry.cjs');

/**
 * The file each analysis thread loads: task.ts and the engine bundled into one CommonJS file, or tsc's task.js in
 * the production image, or task.ts through tsx (task-entry.cjs) should bundling fail (@risk/thread-pool taskFile).
 */
export function analysisTaskFile(): Promise<string> {
  return taskFile({ source: path.join(__dirname, 'task.ts'), name: 'analysis-task', fallback: TASK_ENTRY_TSX });
}

export function createAnalysisPool(opts: AnalysisPoolOptions & { filename?: string | Promise<string> }): AnalysisPool {
  const pool = createBudgetedPool<AnalysisTask, ReturnType<AnalysisEntries[EntryName]>>({
    filename: opts.filename ?? analysisTaskFile(),
    threads: opts.threads,
    // threads are kept warm: loading the engine in a fresh thread costs hundreds of milliseconds
    minThreads: opts.threads,
    budgetMs: opts.timeoutMs,
    overBudget: (budgetMs) => new AnalysisTimeoutError(budgetMs),
  });
  return {
    threads: opts.threads,
    timeoutMs: opts.timeoutMs,
    async run(entry, args, runOpts = {}) {
      const task: AnalysisTask = { entry, args, busy_ms: runOpts.busyMs ?? 0 };
      return (await pool.run(task)) as never;
    },
    close: () => pool.close(),
  };
}

// One pool per process and pool settings, made on first use (startWorker warms it) and shared by every
// worker started with those settings — tests start several workers with copies of one config. Idle
// threads do not keep the process alive; main.ts terminates them at shutdown (closeAnalysisPools).
const pools = new Map<string, AnalysisPool>();

export function analysisPoolFor(config: Config): AnalysisPool {
  const opts = { threads: config.ENRICHMENT_THREADS ?? defaultThreads(), timeoutMs: config.ENRICHMENT_JOB_TIMEOUT_MS };
  const key = `${opts.threads}:${opts.timeoutMs}`;
  let pool = pools.get(key);
  if (!pool) pools.set(key, (pool = createAnalysisPool(opts)));
  return pool;
}

/** Terminates every analysis thread of the process (running analyses reject). */
export async function closeAnalysisPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close()));
}

/**
 * Test-only hook (ENRICHMENT_TEST_BUSY_MS, 0 outside tests): a manifest carrying TEST_BUSY_MARKER
 * makes its analysis thread spin that long, so the deadline tests stay meaningful whatever the engine's
 * patterns cost; other manifests in the same run are analysed normally.
 */
export const TEST_BUSY_MARKER = '#enrichment-test-busy';
export function testBusyMs(config: Config, rawManifest: string | null): number {
  return config.ENRICHMENT_TEST_BUSY_MS > 0 && rawManifest?.includes(TEST_BUSY_MARKER)
    ? config.ENRICHMENT_TEST_BUSY_MS
    : 0;
}
