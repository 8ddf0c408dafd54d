/**
 * Where an analysis thread records that it started a task, shared with the pool (pool.ts): the task's start time in
 * slot `id % slots`, then its id. The pool's deadline counts from that time. Writing shared memory instead of posting a
 * "started" message saves the main thread one wake-up per task (docs/security.md "Analysis under a budget").
 */
import { performance } from 'node:perf_hooks';

export interface StartStampBuffers {
  /** Int32Array: the id of the task last started in each slot */
  ids: SharedArrayBuffer;
  /** Float64Array: when it started, on sharedClock */
  at: SharedArrayBuffer;
}

/** Milliseconds on a clock every thread of the process shares (each isolate's timeOrigin is wall-clock based). */
export const sharedClock = (): number => performance.timeOrigin + performance.now();
