import os from 'node:os';
import path from 'node:path';
import type { Config } from '@risk/common';
import { Piscina } from 'piscina';
import type { AnalysisEntries, AnalysisTask, EntryName, TaskStarted } from './task';

/**
 * The analysis thread pool (docs/security.md, "Analysis under a budget"). The engine is pure CPU on
 * untrusted content, so it runs off the worker's event loop: the main thread keeps answering /healthz,
 * renewing BullMQ locks, relaying the outbox and delivering webhooks whatever a manifest costs, and a
 * second core does analysis. Each task has a deadline counted from the moment its thread starts it
 * (not from when it was queued behind other tasks, nor while a replacement thread is still loading):
 * on expiry the thread is terminated (piscina stops the Worker of an aborted running task) and the
 * task rejects with AnalysisTimeoutError.
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
const TASK_ENTRY = path.join(__dirname, 'task-entry.cjs');

/** Default pool size: two threads (one per core of a small machine), fewer on a single core. */
export function defaultThreads(): number {
  return Math.max(1, Math.min(2, os.availableParallelism()));
}

export function createAnalysisPool(opts: AnalysisPoolOptions): AnalysisPool {
  const piscina = new Piscina({
    filename: TASK_ENTRY,
    minThreads: opts.threads,
    maxThreads: opts.threads,
    // threads are kept warm: loading the engine in a fresh thread costs hundreds of milliseconds
    idleTimeout: Infinity,
    // a task whose thread is terminated must not take other tasks with it
    concurrentTasksPerWorker: 1,
    // analysis threads run at a lower CPU priority than the main thread (nice(2) per thread, through
    // piscina's optional @napi-rs/nice): on a small machine, threads spinning on a hostile manifest
    // must not starve /healthz, BullMQ lock renewal, the outbox relay and webhook delivery
    niceIncrement: 10,
  });
  let nextId = 0;
  // deadline per task, armed when the thread reports that it has started the task
  const running = new Map<number, { controller: AbortController; timer?: NodeJS.Timeout }>();
  piscina.on('message', (message: unknown) => {
    const id = (message as Partial<TaskStarted> | null)?.analysis_task_started;
    const task = id === undefined ? undefined : running.get(id);
    if (!task || task.timer) return;
    task.timer = setTimeout(() => task.controller.abort(new AnalysisTimeoutError(opts.timeoutMs)), opts.timeoutMs);
  });
  // an error outside any task (a thread that fails between tasks): piscina replaces the thread
  piscina.on('error', () => undefined);

  return {
    threads: opts.threads,
    async run(entry, args, runOpts = {}) {
      const id = (nextId = (nextId + 1) % Number.MAX_SAFE_INTEGER);
      const controller = new AbortController();
      const slot: { controller: AbortController; timer?: NodeJS.Timeout } = { controller };
      running.set(id, slot);
      const task: AnalysisTask = { id, entry, args, busy_ms: runOpts.busyMs ?? 0 };
      try {
        return await piscina.run(task, { signal: controller.signal });
      } catch (err) {
        if (controller.signal.reason instanceof AnalysisTimeoutError) throw controller.signal.reason;
        throw err;
      } finally {
        clearTimeout(slot.timer);
        running.delete(id);
      }
    },
    async close() {
      await piscina.destroy();
    },
  };
}

// One pool per worker configuration (in practice one per process; tests build several configs), made
// on first use so code that never enriches never starts threads; startWorker's close() closes it.
const pools = new WeakMap<Config, AnalysisPool>();

export function analysisPoolFor(config: Config): AnalysisPool {
  let pool = pools.get(config);
  if (!pool) {
    pool = createAnalysisPool({
      threads: config.ENRICHMENT_THREADS ?? defaultThreads(),
      timeoutMs: config.ENRICHMENT_JOB_TIMEOUT_MS,
    });
    pools.set(config, pool);
  }
  return pool;
}

export async function closeAnalysisPool(config: Config): Promise<void> {
  const pool = pools.get(config);
  pools.delete(config);
  await pool?.close();
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
