// Artifact upkeep in maintenance (docs/artifacts.md "Re-scans and leases"): scans whose lease ran out (their API
// process died mid-scan) are marked failed, and kept bytes (ARTIFACTS_KEEP_BYTES) whose verdict an older analyser
// version made are scanned again from their Postgres chunks. A verdict that changes asks for the re-enrichment of
// the assets naming the hash (artifact.verdict_changed), as an upload's does. Each re-scan runs in a thread under the
// uploads' CPU budget (ARTIFACTS_SCAN_CPU_MS), off the worker's event loop.
import { hostname } from 'node:os';
import { ANALYSER_VERSION, createArtifactScanner, scanInThread, type ArtifactScanner } from '@risk/artifacts';
import {
  claimArtifactScan,
  completeArtifactScan,
  expireArtifactScans,
  failArtifactScan,
  findArtifactsToRescan,
  keepArtifactLease,
  readArtifactChunks,
} from '@risk/db';
import type { WorkerDeps } from './deps';

/** Hashes re-scanned per maintenance run (the rest wait for the next run). */
export const RESCAN_BATCH = 20;
/** Chunks (1 MiB each) read per query while streaming kept bytes into the scanner. */
const CHUNKS_PER_READ = 8;

export interface ArtifactUpkeepResult {
  /** scans marked failed because their lease ran out */
  artifact_scans_expired: number;
  /** kept artifacts scanned again with the current analyser version */
  artifacts_rescanned: number;
  /** of those, the ones whose verdict changed */
  artifact_verdicts_changed: number;
}

async function streamKeptBytes(deps: WorkerDeps, sha256: string, scanner: ArtifactScanner): Promise<void> {
  for (let fromSeq = 0; ;) {
    const chunks = await readArtifactChunks(deps.pool, { sha256, fromSeq, limit: CHUNKS_PER_READ });
    for (const chunk of chunks) {
      if (chunk.seq !== fromSeq) throw new Error(`kept bytes of ${sha256} miss chunk ${fromSeq}`);
      await scanner.write(chunk.data);
      fromSeq++;
    }
    if (chunks.length < CHUNKS_PER_READ) return;
  }
}

/** Re-scans one kept artifact under a lease; true when its verdict changed. */
async function rescanOne(deps: WorkerDeps, sha256: string, size: number): Promise<boolean | null> {
  const owner = `${hostname()}:${process.pid}:rescan`;
  const leaseMs = deps.config.ARTIFACTS_SCAN_LEASE_MS;
  const claim = await claimArtifactScan(deps.pool, { sha256, size, owner, leaseMs, analyserVersion: ANALYSER_VERSION });
  if (claim.kind === 'known') return null; // re-scanned meanwhile by an upload of the same bytes
  const stopRenewing = keepArtifactLease(deps.pool, { sha256, owner, leaseMs }, (err) =>
    deps.logger.warn('could not renew an artifact scan lease', { err, sha256 }),
  );
  const scanner = createArtifactScanner({ maxBytes: size, spillDirectory: deps.config.ARTIFACTS_SPILL_DIR });
  try {
    await streamKeptBytes(deps, sha256, scanner);
    if (scanner.digest().sha256 !== sha256) throw new Error(`kept bytes of ${sha256} do not hash to it`);
    // in a budgeted thread under the uploads' CPU budget (docs/artifacts.md "Upload scans under a budget"): hostile kept
    // bytes must not stall the worker's health probe, lock renewals or jobs
    const budget = { cpuMs: deps.config.ARTIFACTS_SCAN_CPU_MS, threads: deps.config.ARTIFACTS_SCAN_THREADS };
    const result = await scanner.end((spill) => scanInThread(budget, spill));
    const { verdictChanged } = await completeArtifactScan(deps.pool, result);
    return verdictChanged;
  } catch (err) {
    deps.logger.error('artifact re-scan failed', { err, sha256 });
    await failArtifactScan(deps.pool, { sha256, owner, failure: 'scan_error' });
    return null;
  } finally {
    stopRenewing();
    await scanner.abort();
  }
}

export async function artifactUpkeep(deps: WorkerDeps, now = new Date()): Promise<ArtifactUpkeepResult> {
  const expired = await expireArtifactScans(deps.pool, now);
  const due = await findArtifactsToRescan(deps.pool, { analyserVersion: ANALYSER_VERSION, limit: RESCAN_BATCH });
  let rescanned = 0;
  const changed: string[] = [];
  for (const { sha256, size } of due) {
    const outcome = await rescanOne(deps, sha256, size);
    if (outcome === null) continue;
    rescanned++;
    if (outcome) changed.push(sha256);
  }
  await deps.producer.enqueueArtifactVerdictChanged(changed);
  return {
    artifact_scans_expired: expired.length,
    artifacts_rescanned: rescanned,
    artifact_verdicts_changed: changed.length,
  };
}
