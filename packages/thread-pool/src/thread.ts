// The thread side of a budgeted pool (budgeted-pool.ts): what a task file exports as its default.
import { workerData } from 'node:worker_threads';
import { ownCpuClock, startStamper, type StartStampBuffers } from './start-stamps';

/** What the pool posts to a thread: the task's id (its start stamp's key) and the caller's payload. */
export interface BudgetedTaskMessage<P> {
  id: number;
  payload: P;
}

/** This thread's CPU clock, or null where it cannot be read (no /proc); read once per thread. */
export const threadCpuClock = ownCpuClock();

/**
 * Wraps a task function as a pool thread's entry: it stamps the task's start in the memory it shares with the pool
 * (start-stamps.ts), from which the pool charges the task's CPU budget, then runs it.
 */
export function budgetedTask<P, R>(run: (payload: P) => R): (message: BudgetedTaskMessage<P>) => R {
  const stampStart = startStamper(
    (workerData as { startStamps?: StartStampBuffers } | null)?.startStamps,
    threadCpuClock,
  );
  return (message) => {
    stampStart(message.id);
    return run(message.payload);
  };
}
