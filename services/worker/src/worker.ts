import { withTimeout } from '@risk/common/queue';
import type { Worker } from 'bullmq';
import { analysisPoolFor } from './analysis/pool';
import type { WorkerDeps } from './deps';
import { startJobWorkers } from './jobs';
import { startMaintenance } from './maintenance';
import { collectWorkerMetrics } from './metrics';
import { startOutboxRelay } from './outbox-relay';

export interface RunningWorker {
  workers: Worker[];
  /** stop taking jobs, let in-flight ones finish (up to the deadline), stop relay and maintenance */
  close(deadlineMs?: number): Promise<void>;
}

export function startWorker(deps: WorkerDeps, opts: { relay?: boolean; maintenance?: boolean } = {}): RunningWorker {
  // start the analysis threads now: a thread loads the engine in hundreds of milliseconds
  analysisPoolFor(deps.config);
  const workers = startJobWorkers(deps);
  const relay = opts.relay === false ? null : startOutboxRelay(deps);
  const maintenance = opts.maintenance === false ? null : startMaintenance(deps);
  const stopMetrics = collectWorkerMetrics(deps); // docs/observability.md
  return {
    workers,
    // 8 s: within the process's own shutdown deadline (onShutdown, 11 s)
    async close(deadlineMs = 8_000) {
      maintenance?.stop();
      stopMetrics();
      await relay?.stop();
      // Worker.close() waits for active jobs; past the deadline force-close (BullMQ re-runs those
      // jobs elsewhere through the stalled-job check, and the handlers are idempotent)
      await Promise.all(
        workers.map((w) => withTimeout(w.close(), deadlineMs, 'worker close').catch(() => w.close(true))),
      );
      // the analysis threads are the process's (analysis/pool.ts): main.ts terminates them on exit
    },
  };
}
