// Dispatch from detected format to analyser, and the containers (zip, tar, compressed streams, NumPy, legacy
// PyTorch) that hold pickles. Every member of an archive is analysed by its content, whatever its name; nested
// archives recurse up to a depth; caps end a walk as `unscannable`, never as benign (docs/artifacts.md).
import type { ArtifactFinding, ArtifactFormat, FormatAnalysis } from './types';
import { fromBytes, slice, type RandomAccess } from './random-access';
import { detect, HEAD_BYTES, type DetectedKind } from './detect';
import { PickleWalker, type PickleLimits, type PickleReport, type PickleWalkOptions } from './pickle/walker';
import { readZipDirectory, streamZipMember, InflateCapError, ZipFormatError, type ZipEntry } from './containers/zip';
import { analyseNpyHeader } from './containers/npy';
import { CorruptStreamError, inflateSource, type Codec } from './containers/inflate';
import { analyseSafetensors } from './formats/safetensors';
import { analyseGguf } from './formats/gguf';
import { analyseKerasConfig, analyseKerasH5 } from './formats/keras';
import { utf8Lenient } from './formats/byte-cursor';
import { analyseOnnx } from './formats/onnx';
import { analyseSavedModel } from './formats/savedmodel';

export interface AnalyseOptions {
  /** Archives inside archives, counted from the file (0 = the file itself). */
  maxDepth?: number;
  /** Bytes all compressed members and streams of one artifact may inflate to. */
  maxInflatedBytes?: number;
  /** Output/input ratio past which a compressed member is a bomb. */
  maxCompressionRatio?: number;
  /** Compressed members that are not pickles are inflated into memory up to this size to be analysed. */
  maxMemberInMemory?: number;
  pickleLimits?: Partial<PickleLimits>;
}

export const DEFAULT_OPTIONS: Required<AnalyseOptions> = {
  maxDepth: 4,
  maxInflatedBytes: 16 * 2 ** 30,
  maxCompressionRatio: 250,
  maxMemberInMemory: 32 << 20,
  pickleLimits: {},
};

/** A FormatAnalysis that may also say the bytes are of a type we do not analyse. */
export interface Analysis extends FormatAnalysis {
  unsupported?: string;
}

interface Context {
  depth: number;
  member: string | undefined;
  options: Required<AnalyseOptions>;
  /** Bytes inflated so far for the whole artifact, and the most it may inflate. */
  inflated: { total: number; limit: number };
}

export function rootContext(options: AnalyseOptions = {}, size?: number): Context {
  const merged = { ...DEFAULT_OPTIONS, ...options };
  // Overlapping entries can make a small archive inflate each member up to the ratio cap again and again: the whole
  // artifact inflates to at most the ratio cap times its own size (at least 1 MiB), and never past maxInflatedBytes.
  const limit =
    size === undefined
      ? merged.maxInflatedBytes
      : Math.min(merged.maxInflatedBytes, merged.maxCompressionRatio * Math.max(size, 1 << 20));
  return { depth: 0, member: undefined, options: merged, inflated: { total: 0, limit } };
}

const READ_CHUNK = 1 << 20;

export async function analyseSource(file: RandomAccess, ctx: Context): Promise<Analysis> {
  const head = await file.read(0, HEAD_BYTES);
  const kind = detect(head, file.size);
  try {
    return await analyseKind(file, ctx, { kind, head });
  } catch (error) {
    if (error instanceof ZipFormatError)
      return { format: 'zip_other', findings: [], facts: {}, invalid: error.message };
    if (error instanceof InflateCapError)
      return { format: 'other', findings: [], facts: {}, unscannable: error.message };
    throw error;
  }
}

async function analyseKind(
  file: RandomAccess,
  ctx: Context,
  probe: { kind: DetectedKind; head: Uint8Array },
): Promise<Analysis> {
  const { kind, head } = probe;
  switch (kind) {
    case 'pickle': {
      const report = await walkPickle(file, ctx, {});
      return pickleAnalysis(report, report.usesJoblib ? 'joblib' : 'pickle');
    }
    case 'pickle_text': {
      const report = await walkPickle(file, ctx, {});
      // Text can open like a protocol 0 pickle ("Nice model…" is NONE then INST).
      if (!foundPickle(report)) {
        // Not a pickle after all. Bytes that open with a protocol 0 GLOBAL/INST/MARK line and then break are a
        // malformed pickle; anything else is simply another type.
        // Inside an archive, a text member is data whatever its first character.
        const pickleLike =
          ctx.depth === 0 && (head[0] === 0x63 || head[0] === 0x69 || head[0] === 0x28) && head.includes(0x0a);
        return pickleLike
          ? {
              format: 'other',
              findings: [],
              facts: { detected: 'protocol 0 pickle opening' },
              invalid: report.invalid ?? report.unscannable ?? 'not a pickle',
            }
          : { format: 'other', findings: [], facts: {}, unsupported: 'unrecognised bytes' };
      }
      return pickleAnalysis(report, report.usesJoblib ? 'joblib' : 'pickle');
    }
    case 'pytorch_legacy': {
      // magic, protocol version, sys_info, the object, the storage keys; raw storage bytes follow.
      const report = await walkPickle(file, ctx, { maxPickles: 5 });
      const analysis = pickleAnalysis(report, 'pytorch_legacy');
      if (report.stoppedAt !== undefined) analysis.facts.tensor_data_bytes = file.size - report.stoppedAt;
      return analysis;
    }
    case 'npy':
      return analyseNpy(file, ctx);
    case 'zip':
      return analyseZip(file, ctx);
    case 'tar':
      return analyseTar(file, ctx);
    case 'hdf5':
      return analyseKerasH5(file);
    case 'gguf':
      return analyseGguf(file);
    case 'safetensors':
      return analyseSafetensors(file);
    case 'onnx':
      return analyseOnnx(file);
    case 'savedmodel':
      return analyseSavedModel(file);
    case 'zlib':
    case 'gzip':
    case 'joblib_zfile':
      return analyseCompressed(file, kind, ctx);
    case 'bz2':
    case 'xz':
    case 'lzma':
    case 'lz4':
      return {
        format: 'other',
        findings: [],
        facts: { compression: kind },
        unscannable: `${kind}-compressed stream: no decompressor in the analyser (joblib writes these; they are not scanned)`,
      };
    case '7z':
      return carveArchive(file, ctx, '7z');
    case 'unknown':
      return { format: 'other', findings: [], facts: {}, unsupported: 'unrecognised bytes' };
  }
}

// ---- pickles ----------------------------------------------------------------------------------------------------

export async function walkPickle(file: RandomAccess, ctx: Context, options: PickleWalkOptions): Promise<PickleReport> {
  const start = options.baseOffset ?? 0;
  const walker = new PickleWalker({
    member: ctx.member,
    limits: ctx.options.pickleLimits,
    ...options,
  });
  let at = start;
  while (at < file.size && !walker.finished) {
    const chunk = await file.read(at, Math.min(READ_CHUNK, file.size - at));
    if (chunk.length === 0) break;
    at += chunk.length;
    walker.write(chunk);
    // Payloads the walk does not inspect (tensor bytes) are jumped over, not read.
    at += walker.skipWithin(file.size - at);
  }
  return walker.end();
}

/**
 * Whether a walk found a pickle: a complete one, or a dangerous import before the bytes broke (malicious wins over
 * truncation). Unknown names read out of prose or random bytes do not make one.
 */
function foundPickle(report: PickleReport): boolean {
  return report.pickles > 0 || report.findings.some((f) => f.verdict === 'malicious');
}

/** Findings of a walk over a window that starts `by` bytes into the member, with offsets counted from the member. */
function shiftOffsets(findings: ArtifactFinding[], by: number): ArtifactFinding[] {
  return findings.map((f) => ({ ...f, evidence: { ...f.evidence, offset: (f.evidence.offset ?? 0) + by } }));
}

export function pickleAnalysis(report: PickleReport, format: ArtifactFormat): Analysis {
  const facts: Record<string, unknown> = {
    pickles: report.pickles,
    protocol: report.protocol,
    opcodes: report.opcodes,
    callables: report.callables.map((c) => ({
      name: c.name,
      judgement: c.judgement,
      offset: c.offset,
      count: c.count,
    })),
  };
  if (report.joblibArrays > 0) facts.joblib_arrays = report.joblibArrays;
  if (report.usesDill) facts.serializer = 'dill';
  else if (report.usesCloudpickle) facts.serializer = 'cloudpickle';
  const analysis: Analysis = { format, findings: report.findings, facts };
  if (report.invalid !== undefined) analysis.invalid = report.invalid;
  if (report.unscannable !== undefined) analysis.unscannable = report.unscannable;
  return analysis;
}

// ---- NumPy ------------------------------------------------------------------------------------------------------

async function analyseNpy(file: RandomAccess, ctx: Context): Promise<Analysis> {
  const header = await analyseNpyHeader(file);
  if ('invalid' in header) return { format: 'numpy', findings: [], facts: {}, invalid: header.invalid };
  const facts: Record<string, unknown> = {
    descr: header.descr,
    shape: header.shape,
    fortran_order: header.fortranOrder,
  };
  if (!header.hasObject) {
    if (header.dataBytes !== null && file.size - header.dataOffset < header.dataBytes) {
      return {
        format: 'numpy',
        findings: [],
        facts,
        invalid: `array data truncated: ${file.size - header.dataOffset} of ${header.dataBytes} bytes`,
      };
    }
    return { format: 'numpy', findings: [], facts };
  }
  // Object arrays are a pickle after the header: numpy.load(allow_pickle=True) unpickles it.
  const report = await walkPickle(file, ctx, { baseOffset: header.dataOffset, maxPickles: 1 });
  const analysis = pickleAnalysis(report, 'numpy');
  analysis.facts = { ...facts, ...analysis.facts, object_array: true };
  return analysis;
}

// ---- compressed streams (joblib) --------------------------------------------------------------------------------

async function analyseCompressed(
  file: RandomAccess,
  kind: 'zlib' | 'gzip' | 'joblib_zfile',
  ctx: Context,
): Promise<Analysis> {
  // joblib < 0.10 zfile: "ZF", the length in hex padded to 19 characters, then a zlib stream.
  const start = kind === 'joblib_zfile' ? 21 : 0;
  const source = slice(file, start, file.size - start);
  const inner = await inflateAndAnalyse(source, kind === 'gzip' ? 'gzip' : 'zlib', ctx);
  if (inner.format === 'pickle') inner.format = 'joblib';
  inner.facts = { ...inner.facts, compression: kind };
  return inner;
}

/**
 * Inflates a compressed source under the artifact's caps: a pickle inside is walked as it is produced (any size);
 * other content is buffered up to maxMemberInMemory and analysed by its own format.
 */
async function inflateAndAnalyse(source: RandomAccess, codec: Codec, ctx: Context): Promise<Analysis> {
  const sink = new MemberSink(ctx, ctx.member ?? 'decompressed');
  const overTotal = (): InflateCapError =>
    new InflateCapError(`decompressed output passes ${ctx.inflated.limit} bytes`);
  let produced = 0;
  let finished: boolean;
  try {
    // An earlier member may already have spent the artifact's budget.
    if (source.size > 0 && ctx.inflated.total > ctx.inflated.limit) throw overTotal();
    finished = await inflateSource(source, codec, (chunk, consumed) => {
      produced += chunk.length;
      ctx.inflated.total += chunk.length;
      if (ctx.inflated.total > ctx.inflated.limit) throw overTotal();
      if (produced > 1 << 20 && produced / Math.max(1, consumed) > ctx.options.maxCompressionRatio) {
        throw new InflateCapError(
          `decompression ratio above ${ctx.options.maxCompressionRatio}:1 (a decompression bomb)`,
        );
      }
      sink.push(chunk);
      return !sink.done;
    });
  } catch (error) {
    if (error instanceof InflateCapError) return { ...(await sink.finish()), unscannable: error.message };
    if (error instanceof CorruptStreamError) {
      return { format: 'other', findings: [], facts: {}, invalid: `compressed stream is corrupt: ${error.message}` };
    }
    throw error;
  }
  if (!finished && !sink.done) return { ...(await sink.finish()), invalid: 'compressed stream is truncated' };
  return sink.finish();
}

/**
 * Receives a member's bytes as they are produced: detects the format from the first bytes, streams a pickle through
 * the walker, buffers anything else (up to the in-memory cap) for its own analyser.
 */
class MemberSink {
  private head: Uint8Array[] = [];
  private headLength = 0;
  private kind: DetectedKind | null = null;
  private walker: PickleWalker | null = null;
  private overCap = false;
  done = false;

  constructor(
    private readonly ctx: Context,
    private readonly member: string,
  ) {}

  push(chunk: Uint8Array): void {
    if (this.walker !== null) {
      this.walker.write(chunk);
      if (this.walker.finished) this.done = true;
      return;
    }
    if (this.overCap) return;
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.kind === null && this.headLength >= 16) {
      const joined = concat(this.head, this.headLength);
      this.kind = detect(joined.subarray(0, HEAD_BYTES), Number.MAX_SAFE_INTEGER);
      if (this.kind === 'pickle' || this.kind === 'pytorch_legacy') {
        this.walker = new PickleWalker({
          member: this.member,
          limits: this.ctx.options.pickleLimits,
          ...(this.kind === 'pytorch_legacy' ? { maxPickles: 5 } : {}),
        });
        this.head = [];
        this.walker.write(joined);
        if (this.walker.finished) this.done = true;
        return;
      }
    }
    if (this.headLength > this.ctx.options.maxMemberInMemory) {
      this.overCap = true;
      this.head = [];
    }
  }

  async finish(): Promise<Analysis> {
    if (this.walker !== null) {
      const report = this.walker.end();
      return pickleAnalysis(
        report,
        this.kind === 'pytorch_legacy' ? 'pytorch_legacy' : report.usesJoblib ? 'joblib' : 'pickle',
      );
    }
    if (this.overCap) {
      return {
        format: 'other',
        findings: [],
        facts: {},
        unscannable: `compressed member larger than ${this.ctx.options.maxMemberInMemory} bytes and not a pickle`,
      };
    }
    const bytes = concat(this.head, this.headLength);
    return analyseSource(fromBytes(bytes), { ...this.ctx, member: this.member });
  }
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

// ---- zip --------------------------------------------------------------------------------------------------------

const TORCH_STORAGE = /(^|\/)data\/\d+$/;

function zipFormat(names: string[]): ArtifactFormat {
  if (names.some((n) => n.endsWith('.pkl'))) return 'pytorch_zip';
  if (names.includes('config.json') && names.includes('metadata.json')) return 'keras_v3';
  if (names.some((n) => n.endsWith('.npy'))) return 'numpy_npz';
  return 'zip_other';
}

/** Member names that extract outside the target directory (zip slip): absolute, drive-lettered or climbing `..`. */
function reportTraversal(result: Analysis, names: string[], ctx: Context): void {
  const escaping = names.find((name) => /^(?:[/\\]|[a-zA-Z]:)/.test(name) || name.split(/[/\\]/).includes('..'));
  if (escaping === undefined) return;
  result.findings.push({
    id: 'archive.path_traversal',
    severity: 'high',
    verdict: 'suspicious',
    message: `Archive member ${JSON.stringify(escaping.slice(0, 200))} extracts outside the target directory`,
    evidence: { member: memberPath(ctx, escaping) },
  });
}

function memberPath(ctx: Context, name: string): string {
  return ctx.member === undefined ? name : `${ctx.member}/${name}`;
}

async function analyseZip(file: RandomAccess, ctx: Context): Promise<Analysis> {
  const directory = await readZipDirectory(file);
  const names = directory.entries.map((e) => e.name);
  const format = zipFormat(names);
  const result: Analysis = { format, findings: [], facts: { members: names.length } };
  for (const problem of directory.problems) {
    result.findings.push({
      id: 'zip.inconsistent_structure',
      severity: 'high',
      verdict: 'suspicious',
      message: `Crafted zip structure: ${problem}`,
      evidence: ctx.member !== undefined ? { member: ctx.member } : {},
    });
  }
  reportTraversal(result, names, ctx);
  if (ctx.depth >= ctx.options.maxDepth) {
    result.unscannable = `archive nested deeper than ${ctx.options.maxDepth}`;
    return result;
  }
  let analysedMembers = 0;
  let unsupportedMembers = 0;
  for (const entry of directory.entries) {
    if (entry.isDirectory) continue;
    const path = memberPath(ctx, entry.name);
    if (entry.encrypted) {
      result.unscannable ??= `member ${path} is encrypted`;
      // PyTorch's zip reader ignores the encryption flag, so a plaintext pickle flagged encrypted still loads (the
      // flag trick against scanners that refuse such members): its findings count, the member stays unscannable.
      const plaintext = await analyseZipMember(file, entry, { ...ctx, depth: ctx.depth + 1, member: path });
      addMemberFindings(result, plaintext, path);
      continue;
    }
    // PyTorch reads tensor storages as raw bytes, never as pickles or archives.
    if (format === 'pytorch_zip' && TORCH_STORAGE.test(entry.name)) continue;
    if (format === 'keras_v3' && entry.name === 'config.json') {
      const config = await readSmallMember(file, entry, ctx);
      if (typeof config === 'string') result.unscannable ??= config;
      else merge(result, analyseKerasConfig(config, path), path);
      analysedMembers++;
      continue;
    }
    const member = await analyseZipMember(file, entry, { ...ctx, depth: ctx.depth + 1, member: path });
    if (member.unsupported !== undefined) unsupportedMembers++;
    else analysedMembers++;
    merge(result, member, path);
  }
  result.facts.analysed_members = analysedMembers;
  if (format === 'zip_other' && analysedMembers === 0 && result.unscannable === undefined) {
    result.unsupported = `zip archive whose ${unsupportedMembers} members are of no analysed format`;
  }
  return result;
}

async function readSmallMember(file: RandomAccess, entry: ZipEntry, ctx: Context): Promise<Uint8Array | string> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const cap = ctx.options.maxMemberInMemory;
  try {
    await streamZipMember(file, entry, {
      maxOutput: cap,
      maxRatio: ctx.options.maxCompressionRatio,
      onChunk: (chunk) => {
        chunks.push(chunk);
        length += chunk.length;
        return true;
      },
    });
  } catch (error) {
    if (error instanceof InflateCapError || error instanceof ZipFormatError)
      return `member ${entry.name}: ${error.message}`;
    throw error;
  }
  return concat(chunks, length);
}

async function analyseZipMember(file: RandomAccess, entry: ZipEntry, ctx: Context): Promise<Analysis> {
  if (entry.dataOffset === null)
    return { format: 'other', findings: [], facts: {}, invalid: `member ${ctx.member} has no local header` };
  if (entry.method !== 0 && entry.method !== 8) {
    return {
      format: 'other',
      findings: [],
      facts: {},
      unscannable: `member ${ctx.member} uses compression method ${entry.method}`,
    };
  }
  let analysis: Analysis;
  if (entry.method === 0) {
    analysis = await analyseSource(slice(file, entry.dataOffset, entry.compressedSize), ctx);
  } else {
    analysis = await inflateAndAnalyse(slice(file, entry.dataOffset, entry.compressedSize), 'deflate', ctx);
  }
  // The CRC PyTorch ignores but strict readers check: a mismatch means the bytes were edited after zipping.
  if (analysis.unsupported === undefined && analysis.unscannable === undefined) {
    try {
      const { crc, complete } = await streamZipMember(file, entry, {
        maxOutput: ctx.options.maxInflatedBytes,
        maxRatio: ctx.options.maxCompressionRatio,
        onChunk: () => true,
      });
      if (complete && crc !== entry.crc) {
        analysis.findings.push({
          id: 'zip.crc_mismatch',
          severity: 'high',
          verdict: 'suspicious',
          message: `Member bytes do not match the CRC-32 the archive records (edited after zipping)`,
          evidence: { member: ctx.member! },
        });
      }
    } catch (error) {
      if (!(error instanceof InflateCapError || error instanceof ZipFormatError)) throw error;
    }
  }
  return analysis;
}

/** A member's findings in its container's, each naming the member (a nested archive's keep their inner path). */
function addMemberFindings(into: Analysis, member: Analysis, path: string): void {
  for (const finding of member.findings) {
    into.findings.push(
      finding.evidence.member === undefined ? { ...finding, evidence: { ...finding.evidence, member: path } } : finding,
    );
  }
}

/** Folds a member's analysis into its container's: findings keep their member, problems name it. */
function merge(into: Analysis, member: Analysis, path: string): void {
  addMemberFindings(into, member, path);
  if (member.invalid !== undefined) into.invalid ??= `${path}: ${member.invalid}`;
  if (member.unscannable !== undefined) into.unscannable ??= `${path}: ${member.unscannable}`;
  const formats = (into.facts.member_formats ??= {}) as Record<string, string>;
  if (Object.keys(formats).length < 200) formats[path] = member.unsupported !== undefined ? 'other' : member.format;
  const callables = member.facts.callables;
  if (Array.isArray(callables) && callables.length > 0) {
    const all = (into.facts.callables ??= []) as unknown[];
    for (const c of callables) if (all.length < 1000) all.push({ ...(c as object), member: path });
  }
}

// ---- tar (legacy PyTorch tar files, other tar archives) ---------------------------------------------------------

async function analyseTar(file: RandomAccess, ctx: Context): Promise<Analysis> {
  const result: Analysis = { format: 'other', findings: [], facts: { container: 'tar' } };
  if (ctx.depth >= ctx.options.maxDepth) {
    result.unscannable = `archive nested deeper than ${ctx.options.maxDepth}`;
    return result;
  }
  const names: string[] = [];
  let at = 0;
  let analysed = 0;
  while (at + 512 <= file.size && names.length < 100_000) {
    const header = await file.read(at, 512);
    if (header.every((b) => b === 0)) break;
    const name = utf8Lenient.decode(header.subarray(0, 100)).replace(/\0.*$/s, '');
    const sizeField = utf8Lenient.decode(header.subarray(124, 136)).replace(/\0.*$/s, '').trim();
    if (!/^[0-7]*$/.test(sizeField)) {
      result.invalid = `tar header at ${at} has a malformed size`;
      break;
    }
    const size = sizeField === '' ? 0 : parseInt(sizeField, 8);
    const type = String.fromCharCode(header[156]!);
    const dataStart = at + 512;
    if (dataStart + size > file.size) {
      result.invalid = `tar member ${name} runs past the end of the file`;
      break;
    }
    names.push(name);
    if (type === '0' || type === '\0') {
      const path = memberPath(ctx, name);
      const memberCtx = { ...ctx, depth: ctx.depth + 1, member: path };
      const source = slice(file, dataStart, size);
      // Legacy PyTorch tar members hold pickles followed by raw storage bytes: walk the pickles, not the bytes.
      const memberHead = await source.read(0, HEAD_BYTES);
      const kind = detect(memberHead, size);
      let member: Analysis;
      if (kind === 'pickle' || kind === 'pickle_text') {
        const report = await walkPickle(source, memberCtx, { maxPickles: 1 });
        member =
          kind === 'pickle_text' && !foundPickle(report)
            ? { format: 'other', findings: [], facts: {}, unsupported: 'unrecognised bytes' }
            : pickleAnalysis(report, 'pickle');
        // The `storages` member interleaves one pickle per storage with its raw bytes, whose size only the storage
        // type tells: the pickles after the first are found by their PROTO opening, as in an archive we cannot unpack.
        if (report.stoppedAt !== undefined && report.stoppedAt < size) {
          const rest = await carveArchive(
            slice(source, report.stoppedAt, size - report.stoppedAt),
            memberCtx,
            'tar member',
          );
          // A loop, not push(...): the carve may return tens of thousands of findings.
          for (const finding of shiftOffsets(rest.findings, report.stoppedAt)) member.findings.push(finding);
        }
      } else member = await analyseSource(source, memberCtx);
      if (member.unsupported === undefined) analysed++;
      merge(result, member, path);
    }
    at = dataStart + Math.ceil(size / 512) * 512;
  }
  reportTraversal(result, names, ctx);
  if (names.includes('pickle') && names.includes('storages')) result.format = 'pytorch_legacy';
  result.facts.members = names.length;
  if (analysed === 0 && result.invalid === undefined) result.unsupported = 'tar archive with no analysed member';
  return result;
}

// ---- archives we cannot decompress ------------------------------------------------------------------------------

/**
 * 7z and other archives the analyser cannot unpack: pickles stored uncompressed in them are found by their PROTO
 * opcode and walked; the archive stays `unscannable` because compressed members were not read.
 */
/**
 * Candidate PROTO openings walked per archive, each over at most 1 MiB and 16,384 opcodes: bytes made of nothing but
 * PROTO openings cost a bounded few million opcodes, not one walk per byte. A dangerous import seen before a walk
 * ends counts even when the candidate is cut short.
 */
const MAX_CARVED = 256;

async function carveArchive(file: RandomAccess, ctx: Context, what: string): Promise<Analysis> {
  const result: Analysis = {
    format: 'other',
    findings: [],
    facts: { container: what },
    unscannable: `${what} archive: members are not decompressed; only pickles stored uncompressed were found and scanned`,
  };
  let candidates = 0;
  for (let at = 0; at < file.size && candidates < MAX_CARVED; at += READ_CHUNK) {
    const block = await file.read(at, Math.min(READ_CHUNK + 1, file.size - at));
    for (let i = 0; i < Math.min(block.length - 1, READ_CHUNK) && candidates < MAX_CARVED; i++) {
      if (block[i] !== 0x80 || block[i + 1]! < 2 || block[i + 1]! > 5) continue;
      candidates++;
      const start = at + i;
      const report = await walkPickle(slice(file, start, Math.min(file.size - start, 1 << 20)), ctx, {
        maxPickles: 1,
        limits: { ...ctx.options.pickleLimits, maxOpcodes: 16_384 },
      });
      if (foundPickle(report)) result.findings.push(...shiftOffsets(report.findings, start));
    }
  }
  result.facts.carved_candidates = candidates;
  return result;
}
