import {
  MicroBatch,
  enrichmentWriteKey,
  writeEnrichment,
  writeEnrichments,
  type EnrichmentWrite,
  type EnrichmentWritten,
} from '@risk/db';
import type { WorkerDeps } from '../deps';

/**
 * The job writes, grouped like a group commit (a MicroBatch, docs/data-access.md "Micro-batches"): a
 * write issued while two batches are out waits and shares the next transaction — one BEGIN … COMMIT,
 * two round trips — with every other write queued meanwhile (up to 50); a lone write goes out on the
 * next tick, alone. Two writes of one asset never share a batch (keys). Each batch holds one pooled
 * connection until COMMIT, hence two at most. A failed batch (an asset gone, a deadlock, a constraint:
 * the whole transaction rolled back) writes each of its jobs again on its own, so only the faulty one
 * fails (BullMQ retries it).
 */
const batches = new WeakMap<WorkerDeps['pool'], MicroBatch<EnrichmentWrite, EnrichmentWritten>>();

function batchFor(deps: WorkerDeps): MicroBatch<EnrichmentWrite, EnrichmentWritten> {
  let b = batches.get(deps.pool);
  if (!b) {
    const pool = deps.pool;
    b = new MicroBatch<EnrichmentWrite, EnrichmentWritten>({
      maxInFlight: 2,
      maxItems: 50,
      tick: 'nextTick',
      keys: (w) => [enrichmentWriteKey(w.job)],
      runBatch: (writes) => writeEnrichments(pool, writes),
      runAlone: (write) => writeEnrichment(pool, write),
    });
    batches.set(deps.pool, b);
  }
  return b;
}

/** One job's write transaction (writeEnrichment in @risk/db), shared with the concurrent jobs' writes. */
export function writeJob(deps: WorkerDeps, write: EnrichmentWrite): Promise<EnrichmentWritten> {
  return batchFor(deps).submit(write);
}
