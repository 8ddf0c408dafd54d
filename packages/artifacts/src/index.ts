// The artifact analyser's entry points (docs/artifacts.md): a file on disk, bytes in memory, or a stream (an HTTP
// body) that is hashed as it arrives and spilled to a temporary file under a cap, because zips and most model
// formats need random access to their ends.
import { createHash, randomUUID } from 'node:crypto';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyseSource, rootContext, type Analysis, type AnalyseOptions } from './analyse';
import { fromBytes, fromFileHandle } from './random-access';
import { VERDICT_RANK, type ArtifactFinding, type ArtifactResult, type ArtifactVerdict } from './types';
import { ANALYSER_VERSION } from './version';

export type { ArtifactFinding, ArtifactFormat, ArtifactResult, ArtifactVerdict, FormatAnalysis } from './types';
export type { RandomAccess } from './random-access';
export type { AnalyseOptions } from './analyse';
export { fromBytes, fromFileHandle } from './random-access';
export { detect } from './detect';
export { judgeCallable, qualifiedName } from './pickle/callables';
export { ANALYSER_VERSION } from './version';
export { closeScanPools, SCAN_CPU_BUDGET_SPENT, scanInThread, type ScanBudget, type ScanTask } from './scan-pool';

/** The artifact's verdict: the worst of its findings, `invalid`, `unscannable`, and `unsupported` for other types. */
export function verdictOf(analysis: Analysis): ArtifactVerdict {
  let verdict: ArtifactVerdict = 'benign';
  const raise = (candidate: ArtifactVerdict): void => {
    if (VERDICT_RANK[candidate] > VERDICT_RANK[verdict]) verdict = candidate;
  };
  for (const finding of analysis.findings) raise(finding.verdict);
  if (analysis.invalid !== undefined) raise('invalid');
  if (analysis.unscannable !== undefined) raise('unscannable');
  if (analysis.unsupported !== undefined) raise('unsupported');
  return verdict;
}

function toResult(analysis: Analysis, sha256: string, size: number): ArtifactResult {
  const facts = { ...analysis.facts };
  if (analysis.invalid !== undefined) facts.invalid = analysis.invalid;
  if (analysis.unscannable !== undefined) facts.unscannable = analysis.unscannable;
  if (analysis.unsupported !== undefined) facts.unsupported = analysis.unsupported;
  const findings: ArtifactFinding[] = [...analysis.findings].sort(
    (a, b) => VERDICT_RANK[b.verdict] - VERDICT_RANK[a.verdict],
  );
  return {
    format: analysis.format,
    verdict: verdictOf(analysis),
    findings,
    facts,
    analyser_version: ANALYSER_VERSION,
    sha256,
    size,
  };
}

const HASH_CHUNK = 1 << 20;

async function hashFile(fh: FileHandle, size: number): Promise<string> {
  const hash = createHash('sha256');
  // two buffers: the next read runs in libuv's thread pool while this chunk is hashed on the calling thread, so the
  // hash of a file costs about max(read, SHA-256) rather than their sum (docs/artifacts.md "Throughput")
  const buffers = [Buffer.allocUnsafe(HASH_CHUNK), Buffer.allocUnsafe(HASH_CHUNK)];
  const readAt = (at: number, buffer: Buffer) => fh.read(buffer, 0, Math.min(HASH_CHUNK, size - at), at);
  let at = 0;
  let turn = 0;
  let pending = size > 0 ? readAt(0, buffers[0]!) : null;
  while (pending !== null) {
    const { bytesRead, buffer } = await pending;
    if (bytesRead === 0) break;
    at += bytesRead;
    turn ^= 1;
    pending = at < size ? readAt(at, buffers[turn]!) : null;
    hash.update(buffer.subarray(0, bytesRead));
  }
  await pending;
  return hash.digest('hex');
}

/** Analyses a file by random access (zip central directories are at the end); memory stays at a few read windows. */
export async function analyseFile(filePath: string, options: AnalyseOptions = {}): Promise<ArtifactResult> {
  const fh = await open(filePath, 'r');
  try {
    const { size } = await fh.stat();
    const sha256 = await hashFile(fh, size);
    const analysis = await analyseSource(fromFileHandle(fh, size), rootContext(options, size));
    return toResult(analysis, sha256, size);
  } finally {
    await fh.close();
  }
}

/**
 * Analyses a file whose SHA-256 and size the caller already has (a scanner's spill, hashed as it arrived), so the
 * bytes are not hashed twice: what a budgeted scan thread runs (scan-pool.ts; docs/artifacts.md "Upload scans under a
 * budget").
 */
export async function analyseHashedFile(
  filePath: string,
  digest: { sha256: string; size: number },
  options: AnalyseOptions = {},
): Promise<ArtifactResult> {
  const fh = await open(filePath, 'r');
  try {
    const analysis = await analyseSource(fromFileHandle(fh, digest.size), rootContext(options, digest.size));
    return toResult(analysis, digest.sha256, digest.size);
  } finally {
    await fh.close();
  }
}

export async function analyseBytes(bytes: Uint8Array, options: AnalyseOptions = {}): Promise<ArtifactResult> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const analysis = await analyseSource(fromBytes(bytes), rootContext(options, bytes.length));
  return toResult(analysis, sha256, bytes.length);
}

export interface ArtifactScannerOptions extends AnalyseOptions {
  /** Bytes accepted before the scanner refuses the stream (the upload cap). */
  maxBytes?: number;
  /** Directory for the spill file (removed when the scan ends). */
  spillDirectory?: string;
}

export class ArtifactTooLargeError extends Error {}

export interface ArtifactScanner {
  /** Accepts the next chunk; rejects with ArtifactTooLargeError past maxBytes. */
  write(chunk: Uint8Array): Promise<void>;
  /**
   * Ends the stream without analysing it yet: the SHA-256 and size of the bytes (a caller skips the analysis of
   * bytes it already judged, and `end` or `abort` follows).
   */
  digest(): { sha256: string; size: number };
  /** The spilled bytes in order, in chunks of at most `chunkBytes` (a caller keeping them); after `digest`. */
  chunks(chunkBytes: number): AsyncIterable<Uint8Array>;
  /**
   * Ends the stream and analyses it: here, or through `analyse` (given the spill file's path and digest; a budgeted
   * thread: `scanInThread` of scan-pool.ts). The spill file is removed either way.
   */
  end(
    analyse?: (spill: { path: string; sha256: string; size: number }) => Promise<ArtifactResult>,
  ): Promise<ArtifactResult>;
  /** Drops the stream (client went away) and removes the spill file. */
  abort(): Promise<void>;
}

/**
 * A scanner for bytes that arrive as a stream: SHA-256 is computed as the bytes arrive and the bytes go to a
 * temporary file (never to memory), which the analyser then reads by random access and removes.
 */
export function createArtifactScanner(options: ArtifactScannerOptions = {}): ArtifactScanner {
  const maxBytes = options.maxBytes ?? 2 * 2 ** 30;
  const spillPath = path.join(options.spillDirectory ?? tmpdir(), `artifact-${randomUUID()}.bin`);
  const hash = createHash('sha256');
  let size = 0;
  let handle: Promise<FileHandle> | null = null;
  let closed = false;
  let digested: string | null = null;
  const digest = (): { sha256: string; size: number } => {
    if (closed) throw new Error('scanner already ended');
    digested ??= hash.digest('hex');
    return { sha256: digested, size };
  };
  const file = (): Promise<FileHandle> => (handle ??= open(spillPath, 'wx+', 0o600));
  const cleanup = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    if (handle !== null) {
      await (await handle).close().catch(() => undefined);
      await unlink(spillPath).catch(() => undefined);
    }
  };
  return {
    async write(chunk: Uint8Array): Promise<void> {
      if (closed || digested !== null) throw new Error('scanner already ended');
      size += chunk.length;
      if (size > maxBytes) {
        await cleanup();
        throw new ArtifactTooLargeError(`artifact larger than ${maxBytes} bytes`);
      }
      hash.update(chunk);
      const fh = await file();
      let written = 0;
      while (written < chunk.length) {
        const { bytesWritten } = await fh.write(chunk, written, chunk.length - written);
        written += bytesWritten;
      }
    },
    digest,
    async *chunks(chunkBytes: number): AsyncIterable<Uint8Array> {
      digest();
      const fh = await file();
      for (let at = 0; at < size;) {
        const buffer = Buffer.allocUnsafe(Math.min(chunkBytes, size - at));
        const { bytesRead } = await fh.read(buffer, 0, buffer.length, at);
        if (bytesRead === 0) throw new Error('spill file shorter than the bytes written');
        at += bytesRead;
        yield buffer.subarray(0, bytesRead);
      }
    },
    async end(analyse): Promise<ArtifactResult> {
      const { sha256 } = digest();
      try {
        const fh = await file();
        if (analyse) return await analyse({ path: spillPath, sha256, size });
        const analysis = await analyseSource(fromFileHandle(fh, size), rootContext(options, size));
        return toResult(analysis, sha256, size);
      } finally {
        await cleanup();
      }
    },
    abort: cleanup,
  };
}
