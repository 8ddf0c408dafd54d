import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '@risk/common';
import { build } from 'esbuild';
import { Piscina } from 'piscina';
import { startStampBuffers, startStampReader } from './start-stamps';
import type { AnalysisEntries, AnalysisTask, EntryName } from './task';

/**
 * The analysis thread pool (docs/security.md, "Analysis under a budget"). The engine is pure CPU on
 * untrusted content, so it runs off the worker's event loop: the main thread keeps answering /healthz,
 * renewing BullMQ locks, relaying the outbox and delivering webhooks whatever a manifest costs, and a
 * second core does analysis. Each task has a budget of its thread's CPU time, counted from the moment
 * the thread starts it (not while it is queued behind other tasks, a replacement thread is still loading,
 * or a busy machine leaves the thread waiting for a core; start-stamps.ts): past it the thread is terminated (piscina stops the Worker of an aborted running task) and the
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

const TASK_SOURCE = path.join(__dirname, 'task.ts');
const COMPILED_TASK = path.join(__dirname, 'task.js');
// a .cjs entry that registers tsx, then requires task.ts (see the comment there)
export const TASK_ENTRY_TSX = path.join(__dirname, 'task-entry.cjs');

let taskFile: Promise<string> | undefined;
/**
 * The file each analysis thread loads: task.ts and the engine bundled by esbuild into one CommonJS file
 * (once per process, named by its content hash in the temp directory, written atomically). A thread
 * then starts in ~0.2 s instead of the ~1.5 s tsx needs to compile and resolve the engine's modules —
 * a thread replaced after a timeout is ready for the next job at once. Works the same under tsx and
 * jest, since it reads the sources itself. Should bundling fail, threads load task.ts through tsx
 * (task-entry.cjs): slower to start, same behaviour.
 */
export function analysisTaskFile(): Promise<string> {
  taskFile ??= (async () => {
    // the production image runs tsc's output (infra/docker/Dockerfile): task.js is there, ready to load
    if (fs.existsSync(COMPILED_TASK)) return COMPILED_TASK;
    try {
      const out = await build({
        entryPoints: [TASK_SOURCE],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        write: false,
        logLevel: 'silent',
      });
      const code = out.outputFiles[0]!.contents;
      const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
      const file = path.join(os.tmpdir(), `risk-analysis-task-${hash}.cjs`);
      if (!fs.existsSync(file)) {
        const tmp = `${file}.${process.pid}.tmp`;
        await fs.promises.writeFile(tmp, code);
        await fs.promises.rename(tmp, file);
      }
      return file;
    } catch {
      return TASK_ENTRY_TSX;
    }
  })();
  return taskFile;
}

/** Default pool size: two threads (one per core of a small machine), fewer on a single core. */
export function defaultThreads(): number {
  return Math.max(1, Math.min(2, os.availableParallelism()));
}

export function createAnalysisPool(opts: AnalysisPoolOptions & { filename?: string }): AnalysisPool {
  const ready = (opts.filename ? Promise.resolve(opts.filename) : analysisTaskFile()).then((filename) =>
    startPiscina(filename, opts),
  );
  return {
    threads: opts.threads,
    async run(entry, args, runOpts = {}) {
      return (await ready).run(entry, args, runOpts);
    },
    async close() {
      await (await ready).close();
    },
  };
}

/**
 * Slots of the start stamps, one per task id modulo this: more than the tasks a process ever has queued or running
 * (ENRICHMENT_CONCURRENCY per worker). Should two such tasks share a slot, the earlier one's deadline is only checked
 * again later (never cut short): its slot shows another id, which reads as "not started yet".
 */
const STAMP_SLOTS = 4096;

function startPiscina(filename: string, opts: AnalysisPoolOptions): AnalysisPool {
  const startStamps = startStampBuffers(STAMP_SLOTS);
  const stamps = startStampReader(startStamps);
  const piscina = new Piscina({
    filename,
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
    // each thread stamps the start of a task in shared memory (task.ts): the deadline counts from there
    workerData: { startStamps },
  });
  let nextId = 0;
  // an error outside any task (a thread that fails between tasks): piscina replaces the thread
  piscina.on('error', () => undefined);

  return {
    threads: opts.threads,
    async run(entry, args, runOpts = {}) {
      // ids stay below 2^31 (Int32Array slots) and never repeat within a slot's reuse
      const id = (nextId = (nextId + 1) % 0x7fffffff);
      const controller = new AbortController();
      // The budget is the CPU time the task's thread spends from the task's start, which the thread stamps in shared
      // memory (start-stamps.ts). A timer armed at submission checks the stamp: not started yet (queued behind other
      // tasks, or its thread still loading), it looks again one budget later; started, it reads what the task has
      // spent and looks again when the rest of the budget could at the earliest be spent (a thread cannot spend CPU
      // faster than wall time), or aborts the task.
      const check = (): void => {
        if (!stamps.started(id)) {
          timer = setTimeout(check, opts.timeoutMs);
          return;
        }
        const left = opts.timeoutMs - stamps.spentMs(id);
        if (left <= 0) controller.abort(new AnalysisTimeoutError(opts.timeoutMs));
        else timer = setTimeout(check, left);
      };
      let timer = setTimeout(check, opts.timeoutMs);
      const task: AnalysisTask = { id, entry, args, busy_ms: runOpts.busyMs ?? 0 };
      try {
        return await piscina.run(task, { signal: controller.signal });
      } catch (err) {
        if (controller.signal.reason instanceof AnalysisTimeoutError) throw controller.signal.reason;
        throw err;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await piscina.destroy();
    },
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
