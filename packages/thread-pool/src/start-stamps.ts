/**
 * Where a pool thread records that it started a task, shared with the pool (budgeted-pool.ts), and what the pool
 * reads to charge the task's budget (docs/security.md "Analysis under a budget").
 *
 * In slot `id % slots` the thread writes the task's start time, its own CPU time at that moment and its Linux thread
 * id, then the task's id. The deadline is a budget of the thread's CPU time since that start, read from
 * `/proc/self/task/<tid>/schedstat`: what hostile input controls is how much CPU its task takes, not how
 * long a busy machine leaves a nice +10 thread waiting for a core. Counted in wall time, a benign 1 MiB manifest
 * failed `analysis_timeout` on a CI runner busy with other suites (docs/security.md "Analysis under a budget").
 * Where the thread's CPU time cannot be read (no /proc), the budget counts wall time from the start, as before.
 *
 * Writing shared memory instead of posting a "started" message saves the main thread one wake-up per task.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';

export interface StartStampBuffers {
  /** Int32Array: the id of the task last started in each slot */
  ids: SharedArrayBuffer;
  /** Float64Array: when it started, on sharedClock */
  at: SharedArrayBuffer;
  /** Float64Array: the thread's CPU time then, in ms (NaN: not readable) */
  cpu: SharedArrayBuffer;
  /** Int32Array: the Linux thread id of the thread that started it (-1: unknown) */
  tids: SharedArrayBuffer;
}

/** Milliseconds on a clock every thread of the process shares (each isolate's timeOrigin is wall-clock based). */
export const sharedClock = (): number => performance.timeOrigin + performance.now();

export function startStampBuffers(slots: number): StartStampBuffers {
  const buffers: StartStampBuffers = {
    ids: new SharedArrayBuffer(slots * Int32Array.BYTES_PER_ELEMENT),
    at: new SharedArrayBuffer(slots * Float64Array.BYTES_PER_ELEMENT),
    cpu: new SharedArrayBuffer(slots * Float64Array.BYTES_PER_ELEMENT),
    tids: new SharedArrayBuffer(slots * Int32Array.BYTES_PER_ELEMENT),
  };
  new Int32Array(buffers.ids).fill(-1);
  return buffers;
}

/** The first field of a schedstat file: nanoseconds the thread has run on a CPU. */
const schedstatMs = (text: string): number => Number(text.slice(0, text.indexOf(' '))) / 1e6;

/** This thread's own CPU clock: its id and an open schedstat file, re-read at offset 0 (one pread, ~2 µs). */
export interface OwnCpuClock {
  tid: number;
  /** ms of CPU this thread has run; NaN once unreadable */
  now(): number;
}

export function ownCpuClock(): OwnCpuClock | null {
  try {
    // "/proc/thread-self" names this thread's task directory: "<pid>/task/<tid>"
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    const fd = fs.openSync('/proc/thread-self/schedstat', 'r');
    const buf = Buffer.alloc(96);
    const now = (): number => {
      try {
        return schedstatMs(buf.toString('latin1', 0, fs.readSync(fd, buf, 0, buf.length, 0)));
      } catch {
        return Number.NaN;
      }
    };
    return Number.isInteger(tid) && tid > 0 && Number.isFinite(now()) ? { tid, now } : null;
  } catch {
    return null;
  }
}

/** The stamps as a thread writes them (thread.ts). */
export function startStamper(buffers: StartStampBuffers | undefined, clock: OwnCpuClock | null): (id: number) => void {
  if (!buffers) return () => undefined;
  const ids = new Int32Array(buffers.ids);
  const at = new Float64Array(buffers.at);
  const cpu = new Float64Array(buffers.cpu);
  const tids = new Int32Array(buffers.tids);
  return (id) => {
    const slot = id % ids.length;
    at[slot] = sharedClock();
    cpu[slot] = clock ? clock.now() : Number.NaN;
    tids[slot] = clock ? clock.tid : -1;
    // the id last, with a sequentially consistent store: a reader that sees the id also sees what was written before it
    Atomics.store(ids, slot, id);
  };
}

/** The stamps as the pool reads them (budgeted-pool.ts). */
export interface StartStampReader {
  /** whether task `id`'s thread has started it */
  started(id: number): boolean;
  /** what task `id` has spent of its budget since it started, in ms: its thread's CPU time, else wall time */
  spentMs(id: number): number;
}

export function startStampReader(buffers: StartStampBuffers): StartStampReader {
  const ids = new Int32Array(buffers.ids);
  const at = new Float64Array(buffers.at);
  const cpu = new Float64Array(buffers.cpu);
  const tids = new Int32Array(buffers.tids);
  const threadCpuMs = (tid: number): number => {
    try {
      return schedstatMs(fs.readFileSync(`/proc/self/task/${tid}/schedstat`, 'latin1'));
    } catch {
      return Number.NaN; // the thread has exited (terminated and replaced)
    }
  };
  return {
    started: (id) => Atomics.load(ids, id % ids.length) === id,
    spentMs(id) {
      const slot = id % ids.length;
      const wall = sharedClock() - at[slot]!;
      const tid = tids[slot]!;
      const cpuSpent = tid > 0 ? threadCpuMs(tid) - cpu[slot]! : Number.NaN;
      return Number.isFinite(cpuSpent) ? Math.min(cpuSpent, wall) : wall;
    },
  };
}
