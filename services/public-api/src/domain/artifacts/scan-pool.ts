// Upload scans under a CPU budget (docs/artifacts.md "Upload scans under a budget"): the analyser runs in a thread of
// @risk/thread-pool's budgeted pool, as manifest analysis does in the worker (docs/security.md "Analysis under a
// budget"), so the API's event loop keeps answering health probes and requests whatever the bytes cost. A scan past
// ARTIFACTS_SCAN_CPU_MS of its thread's CPU time is stopped and its bytes are `unscannable`, never benign.
import path from 'node:path';
import { unscannableResult, type ArtifactResult } from '@risk/artifacts';
import type { Config } from '@risk/common/config';
import { createBudgetedPool, defaultThreads, taskFile, type BudgetedPool } from '@risk/thread-pool';
import type { ScanTask } from './scan-task';

export const SCAN_CPU_BUDGET_SPENT = 'cpu_budget_spent';

class ScanOverBudgetError extends Error {
  override readonly name = 'ScanOverBudgetError';
}

const pools = new Map<string, BudgetedPool<ScanTask, ArtifactResult>>();

function poolFor(config: Config): BudgetedPool<ScanTask, ArtifactResult> {
  const threads = config.ARTIFACTS_SCAN_THREADS ?? defaultThreads();
  const key = `${threads}:${config.ARTIFACTS_SCAN_CPU_MS}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = createBudgetedPool<ScanTask, ArtifactResult>({
      filename: taskFile({
        source: path.join(__dirname, 'scan-task.ts'),
        name: 'artifact-scan-task',
        fallback: path.join(__dirname, 'scan-task-entry.cjs'),
      }),
      threads,
      // uploads are rare next to requests: threads start on demand and leave after a minute idle
      minThreads: 0,
      idleTimeoutMs: 60_000,
      budgetMs: config.ARTIFACTS_SCAN_CPU_MS,
      overBudget: (budgetMs) => new ScanOverBudgetError(`scan over its CPU budget of ${budgetMs} ms`),
    });
    pools.set(key, pool);
  }
  return pool;
}

/** Analyses a spill file in a budgeted thread; over the budget the result is `unscannable` (cpu_budget_spent). */
export async function scanInThread(config: Config, task: ScanTask): Promise<ArtifactResult> {
  try {
    return await poolFor(config).run(task);
  } catch (err) {
    if (err instanceof ScanOverBudgetError) return unscannableResult(SCAN_CPU_BUDGET_SPENT, task);
    throw err;
  }
}

/** Terminates every scan thread of the process (running scans reject); main.ts calls it at shutdown. */
export async function closeScanPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close()));
}
