// Scans under a CPU budget (docs/artifacts.md "Upload scans under a budget"): the analyser runs in a thread of
// @risk/thread-pool's budgeted pool, as manifest analysis does in the worker (docs/security.md "Analysis under a
// budget"), so the caller's event loop keeps answering health probes, renewing leases and serving requests whatever
// the bytes cost. The public API's upload scans and the worker's re-scans of kept bytes both come here. A scan past
// its budget of its thread's CPU time is stopped and its bytes are `unscannable`, never benign.
import path from 'node:path';
import { createBudgetedPool, defaultThreads, taskFile, type BudgetedPool } from '@risk/thread-pool';
import type { ArtifactResult } from './types';
import { ANALYSER_VERSION } from './version';

/** What a scan thread gets (scan-task.ts): a spill file and the digest its bytes were hashed to as they arrived. */
export interface ScanTask {
  path: string;
  sha256: string;
  size: number;
}

/** `facts.unscannable` of bytes whose scan spent its CPU budget. */
export const SCAN_CPU_BUDGET_SPENT = 'cpu_budget_spent';

/** The budget of a scan: the caller's settings (ARTIFACTS_SCAN_CPU_MS, ARTIFACTS_SCAN_THREADS). */
export interface ScanBudget {
  /** CPU time one scan may spend in its thread, in ms */
  cpuMs: number;
  /** scan threads of the process (default: one per core, at most two) */
  threads?: number;
}

/** The result of bytes whose scan was stopped from outside: `unscannable` with the reason, never benign. */
function unscannableResult(reason: string, digest: { sha256: string; size: number }): ArtifactResult {
  return {
    format: 'other',
    verdict: 'unscannable',
    findings: [],
    facts: { unscannable: reason },
    analyser_version: ANALYSER_VERSION,
    sha256: digest.sha256,
    size: digest.size,
  };
}

class ScanOverBudgetError extends Error {
  override readonly name = 'ScanOverBudgetError';
}

const pools = new Map<string, BudgetedPool<ScanTask, ArtifactResult>>();

function poolFor(budget: ScanBudget): BudgetedPool<ScanTask, ArtifactResult> {
  const threads = budget.threads ?? defaultThreads();
  const key = `${threads}:${budget.cpuMs}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = createBudgetedPool<ScanTask, ArtifactResult>({
      filename: taskFile({
        source: path.join(__dirname, 'scan-task.ts'),
        name: 'artifact-scan-task',
        fallback: path.join(__dirname, 'scan-task-entry.cjs'),
      }),
      threads,
      // scans are rare next to requests and jobs: threads start on demand and leave after a minute idle
      minThreads: 0,
      idleTimeoutMs: 60_000,
      budgetMs: budget.cpuMs,
      overBudget: (budgetMs) => new ScanOverBudgetError(`scan over its CPU budget of ${budgetMs} ms`),
    });
    pools.set(key, pool);
  }
  return pool;
}

/**
 * Analyses a spill file (its path and the digest computed as the bytes arrived) in a budgeted thread; over the
 * budget the result is `unscannable` (cpu_budget_spent). Shaped for `ArtifactScanner.end`:
 * `scanner.end((spill) => scanInThread(budget, spill))`.
 */
export async function scanInThread(budget: ScanBudget, task: ScanTask): Promise<ArtifactResult> {
  try {
    return await poolFor(budget).run(task);
  } catch (err) {
    if (err instanceof ScanOverBudgetError) return unscannableResult(SCAN_CPU_BUDGET_SPENT, task);
    throw err;
  }
}

/** Terminates every scan thread of the process (running scans reject); a service's main calls it at shutdown. */
export async function closeScanPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close()));
}
