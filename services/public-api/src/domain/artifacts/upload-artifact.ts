// POST /v1/artifacts (docs/artifacts.md "Artifacts in the API"): the body is streamed into the analyser's scanner,
// which hashes each chunk and spills it to a private temporary file (never to memory), under ARTIFACTS_MAX_BYTES.
// Bytes already judged by this analyser version are not scanned again. A scan that outlives ARTIFACTS_SCAN_WAIT_MS
// answers 202 and goes on; its lease (ARTIFACTS_SCAN_LEASE_MS, renewed while it runs) lets the worker or another
// replica mark it failed if this process dies. Bytes are dropped after the scan unless ARTIFACTS_KEEP_BYTES.
import { hostname } from 'node:os';
import type { Readable } from 'node:stream';
import {
  ANALYSER_VERSION,
  ArtifactTooLargeError,
  createArtifactScanner,
  scanInThread,
  type ArtifactScanner,
} from '@risk/artifacts';
import { ApiError } from '@risk/common/errors';
import { JsonResponse } from '@risk/common/http';
import type { Artifact } from '@risk/contracts';
import {
  ARTIFACT_CHUNK_BYTES,
  claimArtifactScan,
  completeArtifactScan,
  failArtifactScan,
  markArtifactBytesKept,
  keepArtifactLease,
  recordArtifactUpload,
  writeArtifactChunk,
  type ArtifactRow,
} from '@risk/db';
import type { AppDeps } from '../../deps';
import { artifactObject } from './artifact-object';
import { acquireScanSlot } from './scan-slots';

export interface UploadInput {
  orgId: string;
  livemode: boolean;
  requestId: string;
  /** the request: its body is the artifact's bytes */
  body: Readable & { headers: Record<string, string | string[] | undefined> };
  filename?: string;
  idempotencyKey?: string;
}

const tooLarge = (max: number) =>
  new ApiError('request_too_large', { message: `The artifact exceeds the upload limit of ${max} bytes.` });

/** Streams the body into the scanner; on any failure (cap, client gone) the spill file is removed. */
async function receive(deps: AppDeps, input: UploadInput): Promise<ArtifactScanner> {
  const max = deps.config.ARTIFACTS_MAX_BYTES;
  const declared = Number(input.body.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) throw tooLarge(max);
  const scanner = createArtifactScanner({ maxBytes: max, spillDirectory: deps.config.ARTIFACTS_SPILL_DIR });
  try {
    for await (const chunk of input.body) await scanner.write(chunk as Buffer);
  } catch (err) {
    await scanner.abort();
    if (err instanceof ArtifactTooLargeError) throw tooLarge(max);
    throw err;
  }
  return scanner;
}

/** Copies the spilled bytes to Postgres (replicas share no disk) and marks them kept. */
async function keepBytes(deps: AppDeps, scanner: ArtifactScanner, sha256: string): Promise<void> {
  let seq = 0;
  for await (const data of scanner.chunks(ARTIFACT_CHUNK_BYTES))
    await writeArtifactChunk(deps.pool, { sha256, seq: seq++, data });
  await markArtifactBytesKept(deps.pool, sha256, seq);
}

/** Tells the worker to re-enrich the assets naming the hash; a failure is logged, the verdict is stored already. */
async function announceVerdict(deps: AppDeps, sha256: string): Promise<void> {
  await deps.producer
    .enqueueArtifactVerdictChanged([sha256])
    .catch((err: unknown) => deps.logger.warn('could not enqueue artifact.verdict_changed', { err, sha256 }));
}

/** The scan under a renewed lease: the verdict row written, the spill removed, whatever happens. */
async function scan(
  deps: AppDeps,
  job: { scanner: ArtifactScanner; sha256: string; owner: string; keep: boolean },
): Promise<ArtifactRow> {
  const { scanner, sha256, owner } = job;
  const stopRenewing = keepArtifactLease(
    deps.pool,
    { sha256, owner, leaseMs: deps.config.ARTIFACTS_SCAN_LEASE_MS },
    (err) => deps.logger.warn('could not renew an artifact scan lease', { err, sha256 }),
  );
  try {
    if (job.keep) await keepBytes(deps, scanner, sha256);
    // in a budgeted thread, off the event loop (docs/artifacts.md "Upload scans under a budget")
    const budget = { cpuMs: deps.config.ARTIFACTS_SCAN_CPU_MS, threads: deps.config.ARTIFACTS_SCAN_THREADS };
    const result = await scanner.end((spill) => scanInThread(budget, spill));
    const { artifact, verdictChanged } = await completeArtifactScan(deps.pool, result);
    if (verdictChanged) await announceVerdict(deps, sha256);
    return artifact;
  } catch (err) {
    await failArtifactScan(deps.pool, { sha256, owner, failure: 'scan_error' }).catch(() => undefined);
    throw err;
  } finally {
    stopRenewing();
    await scanner.abort();
  }
}

const WAITED_OUT = Symbol('waited out');

function waitAtMost<T>(promise: Promise<T>, ms: number): Promise<T | typeof WAITED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof WAITED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(WAITED_OUT), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function uploadArtifact(deps: AppDeps, input: UploadInput): Promise<JsonResponse<Artifact>> {
  // taken before a byte of the body is read, given back when the scan ends (scan-slots.ts)
  const slot = await acquireScanSlot(deps, input.orgId);
  let scanner: ArtifactScanner;
  try {
    scanner = await receive(deps, input);
  } catch (err) {
    await slot.release();
    throw err;
  }
  let handedOver = false;
  try {
    const { sha256, size } = scanner.digest();
    const owner = `${hostname()}:${process.pid}:${input.requestId}`;
    const claim = await claimArtifactScan(deps.pool, {
      sha256,
      size,
      owner,
      leaseMs: deps.config.ARTIFACTS_SCAN_LEASE_MS,
      analyserVersion: ANALYSER_VERSION,
    });
    await recordArtifactUpload(deps.pool, {
      orgId: input.orgId,
      livemode: input.livemode,
      sha256,
      idempotencyKey: input.idempotencyKey ?? null,
      filename: input.filename ?? null,
    });
    const keep = deps.config.ARTIFACTS_KEEP_BYTES;
    if (claim.kind === 'known') {
      if (keep && !claim.artifact.bytes_kept) await keepBytes(deps, scanner, sha256);
      return new JsonResponse(200, artifactObject(claim.artifact));
    }
    handedOver = true;
    const task = scan(deps, { scanner, sha256, owner, keep }).finally(() => slot.release());
    const done = await waitAtMost(task, deps.config.ARTIFACTS_SCAN_WAIT_MS);
    if (done === WAITED_OUT) {
      task.catch((err: unknown) => deps.logger.error('artifact scan failed after its 202', { err, sha256 }));
      const scanning: Artifact = artifactObject({ ...claim.artifact, status: 'scanning' });
      return new JsonResponse(202, scanning);
    }
    return new JsonResponse(claim.created ? 201 : 200, artifactObject(done));
  } finally {
    if (!handedOver) {
      await scanner.abort();
      await slot.release();
    }
  }
}
