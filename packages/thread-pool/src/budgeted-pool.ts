import os from 'node:os';
import { Piscina } from 'piscina';
import { startStampBuffers, startStampReader } from './start-stamps';
import type { BudgetedTaskMessage } from './thread';

/**
 * A thread pool for pure CPU work on untrusted input, each task under a budget of its thread's CPU time
 * (docs/security.md "Analysis under a budget"). The work runs off the caller's event loop, so the main thread keeps
 * answering health checks, renewing locks and serving requests whatever the input costs. The budget counts from the
 * moment the thread starts the task (not while it is queued behind other tasks, a replacement thread is still
 * loading, or a busy machine leaves the thread waiting for a core; start-stamps.ts): past it the thread is terminated
 * (piscina stops the Worker of an aborted running task) and the task rejects with the pool's `overBudget` error.
 *
 * The enrichment analysis (services/worker/src/analysis/pool.ts) and the firewall reply parser
 * (packages/firewalls/src/connector/reply-parser.ts) both run on it. A thread's task file wraps its function in
 * `budgetedTask` (thread.ts), which stamps the start the budget counts from.
 */
export interface BudgetedPoolOptions {
  /** the file each thread loads (taskFile in task-file.ts); a promise while it is being bundled */
  filename: string | Promise<string>;
  /** most threads at once */
  threads: number;
  /** threads kept even when idle (default: `threads`, kept warm) */
  minThreads?: number;
  /** an idle thread above minThreads exits after this long (default: never) */
  idleTimeoutMs?: number;
  /** CPU time a task may spend, in ms */
  budgetMs: number;
  /** the error a task over its budget rejects with */
  overBudget: (budgetMs: number) => Error;
}

export interface BudgetedPool<P, R> {
  /** Runs one task in a thread; rejects with the pool's overBudget error past the budget. */
  run(payload: P): Promise<R>;
  /** Terminates every thread (running tasks reject). */
  close(): Promise<void>;
}

/** Default pool size: two threads (one per core of a small machine), fewer on a single core. */
export function defaultThreads(): number {
  return Math.max(1, Math.min(2, os.availableParallelism()));
}

/**
 * Slots of the start stamps, one per task id modulo this: more than the tasks a process ever has queued or running.
 * Should two such tasks share a slot, the earlier one's deadline is only checked again later (never cut short): its
 * slot shows another id, which reads as "not started yet".
 */
const STAMP_SLOTS = 4096;

export function createBudgetedPool<P, R>(opts: BudgetedPoolOptions): BudgetedPool<P, R> {
  const ready = Promise.resolve(opts.filename).then((filename) => startPiscina<P, R>(filename, opts));
  return {
    async run(payload) {
      return (await ready).run(payload);
    },
    async close() {
      await (await ready).close();
    },
  };
}

function startPiscina<P, R>(filename: string, opts: BudgetedPoolOptions): BudgetedPool<P, R> {
  const startStamps = startStampBuffers(STAMP_SLOTS);
  const stamps = startStampReader(startStamps);
  const piscina = new Piscina({
    filename,
    minThreads: opts.minThreads ?? opts.threads,
    maxThreads: opts.threads,
    idleTimeout: opts.idleTimeoutMs ?? Infinity,
    // a task whose thread is terminated must not take other tasks with it
    concurrentTasksPerWorker: 1,
    // pool threads run at a lower CPU priority than the main thread (nice(2) per thread, through piscina's optional
    // @napi-rs/nice): on a small machine, threads spinning on hostile input must not starve the main thread's
    // health checks, lock renewals and requests
    niceIncrement: 10,
    // each thread stamps the start of a task in shared memory (thread.ts): the budget counts from there
    workerData: { startStamps },
  });
  let nextId = 0;
  // an error outside any task (a thread that fails between tasks): piscina replaces the thread
  piscina.on('error', () => undefined);

  return {
    async run(payload) {
      // ids stay below 2^31 (Int32Array slots) and never repeat within a slot's reuse
      const id = (nextId = (nextId + 1) % 0x7fffffff);
      const controller = new AbortController();
      let overBudget: Error | undefined;
      // The budget is the CPU time the task's thread spends from the task's start, which the thread stamps in shared
      // memory (start-stamps.ts). A timer armed at submission checks the stamp: not started yet (queued behind other
      // tasks, or its thread still loading), it looks again one budget later; started, it reads what the task has
      // spent and looks again when the rest of the budget could at the earliest be spent (a thread cannot spend CPU
      // faster than wall time), or aborts the task.
      const check = (): void => {
        if (!stamps.started(id)) {
          timer = setTimeout(check, opts.budgetMs);
          return;
        }
        const left = opts.budgetMs - stamps.spentMs(id);
        if (left <= 0) controller.abort((overBudget = opts.overBudget(opts.budgetMs)));
        else timer = setTimeout(check, left);
      };
      let timer = setTimeout(check, opts.budgetMs);
      const message: BudgetedTaskMessage<P> = { id, payload };
      try {
        return (await piscina.run(message, { signal: controller.signal })) as R;
      } catch (err) {
        if (overBudget && controller.signal.reason === overBudget) throw overBudget;
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
