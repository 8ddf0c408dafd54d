// @risk/thread-pool: pure CPU work on untrusted input in worker threads, each task under a CPU-time budget
// (docs/security.md "Analysis under a budget"). budgeted-pool.ts is the pool, thread.ts the side a task file uses,
// task-file.ts what the threads load.
export { createBudgetedPool, defaultThreads, type BudgetedPool, type BudgetedPoolOptions } from './budgeted-pool';
export { budgetedTask, threadCpuClock, type BudgetedTaskMessage } from './thread';
export { taskFile, type TaskFileSource } from './task-file';
export type { OwnCpuClock } from './start-stamps';
