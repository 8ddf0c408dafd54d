import type { EnrichmentJob } from '@risk/common/queue';
import {
  MicroBatch,
  enrichmentWriteKey,
  readCandidateAdvisories,
  readEnrichmentJobs,
  writeEnrichment,
  writeEnrichments,
  type AdvisoryLookupKey,
  type EnrichmentWrite,
  type EnrichmentWritten,
  type JobRead,
} from '@risk/db';
import { ADVISORY_CVE_IDS, type EnrichmentResult } from '@risk/enrichment';
import type { WorkerDeps } from '../deps';
import { enrichmentEvents } from './enrichment-events';

/**
 * The job's reads and its write, each grouped like a group commit (a MicroBatch, docs/data-access.md): a read issued while
 * two batches are out waits for the next round trip and shares it with every other read queued
 * meanwhile (up to 100). A lone read goes out on the next tick, so it waits for nothing. A failed batch
 * fails each of its jobs (BullMQ retries). The job read carries the candidate threats (every CVE id the
 * engine can report, ADVISORY_CVE_IDS) and the advisory look-ups of concurrent jobs share one statement
 * too: one statement per kind per batch, not per job (docs/performance.md).
 */
interface Batches {
  jobs: MicroBatch<EnrichmentJob, JobRead | undefined>;
  advisories: MicroBatch<AdvisoryLookupKey, unknown[]>;
  writes: MicroBatch<Write, EnrichmentWritten>;
}
type Write = EnrichmentWrite<EnrichmentResult>;
const batches = new WeakMap<WorkerDeps['pool'], Batches>();
const CVE_IDS = [...ADVISORY_CVE_IDS];

function batchesFor(deps: WorkerDeps): Batches {
  let b = batches.get(deps.pool);
  if (!b) {
    const pool = deps.pool;
    const ttlMs = deps.config.OBSERVATION_TTL_DAYS * 86_400_000;
    b = {
      jobs: new MicroBatch<EnrichmentJob, JobRead | undefined>({
        maxInFlight: 2,
        maxItems: 100,
        tick: 'nextTick',
        runBatch: (jobs) =>
          readEnrichmentJobs(pool, jobs, { observedSince: new Date(Date.now() - ttlMs), cveIds: CVE_IDS }),
      }),
      // one batch in flight: each statement replaces its assets' asset_packages, and two of them writing
      // the same asset's rows at once could deadlock; the jobs of one asset never share a batch (keys)
      advisories: new MicroBatch<AdvisoryLookupKey, unknown[]>({
        maxInFlight: 1,
        maxItems: 100,
        tick: 'nextTick',
        keys: (l) => [enrichmentWriteKey(l)], // one asset per batch, keyed as the writes are
        runBatch: (lookups) => readCandidateAdvisories(pool, lookups),
      }),
      // the write transactions likewise (docs/data-access.md "Micro-batches"): up to 50 jobs' writes in one
      // transaction, two round trips; each batch holds one pooled connection until COMMIT, hence two at most. A
      // failed batch (an asset gone, a deadlock, a constraint: all rolled back) writes each of its jobs again on its
      // own, so only the faulty one fails (BullMQ retries it)
      writes: new MicroBatch<Write, EnrichmentWritten>({
        maxInFlight: 2,
        maxItems: 50,
        tick: 'nextTick',
        keys: (w) => [enrichmentWriteKey(w.job)],
        runBatch: (writes) => writeEnrichments(pool, writes),
        runAlone: (write) => writeEnrichment(pool, write),
      }),
    };
    batches.set(deps.pool, b);
  }
  return b;
}

export function readJob(deps: WorkerDeps, job: EnrichmentJob): Promise<JobRead | undefined> {
  return batchesFor(deps).jobs.submit(job);
}

/** One job's advisory look-up (docs/advisories.md "Enrichment"), batched with the concurrent jobs' ones. */
export function readAdvisories(deps: WorkerDeps, lookup: AdvisoryLookupKey): Promise<unknown[]> {
  return batchesFor(deps).advisories.submit(lookup);
}

/**
 * One job's write transaction (writeEnrichment in @risk/db), shared with the concurrent jobs' writes; the events it
 * records are decided here, in the worker (enrichment-events.ts).
 */
export function writeJob(deps: WorkerDeps, write: Omit<Write, 'events'>): Promise<EnrichmentWritten> {
  return batchesFor(deps).writes.submit({ ...write, events: enrichmentEvents });
}
