// A zip reader over RandomAccess: the central directory is read from the end of the file (zip64 too), each member's
// local header is checked against it, and member bytes are streamed (stored) or inflated in chunks under output caps,
// so an archive of any size costs a bounded window. Readers disagree on crafted archives (PyTorch's miniz reads the
// central directory, others the local headers), so disagreements are findings, not silently resolved
// (docs/artifacts.md "Containers").
import { crc32 } from 'node:zlib';
import { utf8Lenient } from '../formats/byte-cursor';
import { readU16LE, readU32LE, readU64LE } from '../little-endian';
import { slice, type RandomAccess } from '../random-access';
import { CorruptStreamError, inflateSource } from './inflate';

export interface ZipEntry {
  name: string;
  /** Name in the local header (differs from `name` in crafted archives). */
  localName: string | null;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
  /** Offset of the member's data (after the local header), null when the local header is unreadable. */
  dataOffset: number | null;
  encrypted: boolean;
  isDirectory: boolean;
}

export interface ZipDirectory {
  entries: ZipEntry[];
  /** Problems with the archive's structure (not with a member's content). */
  problems: string[];
}

export class ZipFormatError extends Error {}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
export const MAX_ZIP_ENTRIES = 100_000;
const MAX_CENTRAL_DIRECTORY = 64 << 20;

function u64(b: Uint8Array, at: number): number {
  const value = readU64LE(b, at);
  if (!Number.isSafeInteger(value)) throw new ZipFormatError('a zip64 size beyond 2^53');
  return value;
}

export async function readZipDirectory(file: RandomAccess): Promise<ZipDirectory> {
  const problems: string[] = [];
  const tailLength = Math.min(file.size, 65_557);
  const tail = await file.read(file.size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (readU32LE(tail, i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipFormatError('no end of central directory record');
  let count = readU16LE(tail, eocd + 10);
  let cdSize = readU32LE(tail, eocd + 12);
  let cdOffset = readU32LE(tail, eocd + 16);
  const eocdAbsolute = file.size - tailLength + eocd;
  if (eocd >= 20 && readU32LE(tail, eocd - 20) === ZIP64_LOCATOR) {
    const recordOffset = u64(tail, eocd - 20 + 8);
    const record = await file.read(recordOffset, 56);
    if (record.length < 56 || readU32LE(record, 0) !== ZIP64_EOCD) throw new ZipFormatError('bad zip64 end record');
    count = u64(record, 32);
    cdSize = u64(record, 40);
    cdOffset = u64(record, 48);
  }
  if (count > MAX_ZIP_ENTRIES) throw new ZipFormatError(`more than ${MAX_ZIP_ENTRIES} entries`);
  if (cdSize > MAX_CENTRAL_DIRECTORY) throw new ZipFormatError('central directory larger than 64 MiB');
  if (cdOffset + cdSize > eocdAbsolute) {
    // Data prepended to the archive (self-extractors) shifts every offset; readers differ, so record it.
    problems.push('central directory offset points past its end record');
  }
  const cd = await file.read(cdOffset, cdSize);
  if (cd.length < cdSize) throw new ZipFormatError('central directory truncated');
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > cd.length || readU32LE(cd, at) !== CENTRAL)
      throw new ZipFormatError(`central directory entry ${i} is malformed`);
    const flags = readU16LE(cd, at + 8);
    const method = readU16LE(cd, at + 10);
    const crc = readU32LE(cd, at + 16);
    let compressedSize = readU32LE(cd, at + 20);
    let uncompressedSize = readU32LE(cd, at + 24);
    const nameLength = readU16LE(cd, at + 28);
    const extraLength = readU16LE(cd, at + 30);
    const commentLength = readU16LE(cd, at + 32);
    let localHeaderOffset = readU32LE(cd, at + 42);
    if (at + 46 + nameLength + extraLength + commentLength > cd.length)
      throw new ZipFormatError('central directory truncated');
    const name = utf8Lenient.decode(cd.subarray(at + 46, at + 46 + nameLength));
    // zip64 extended information: the 0xffffffff fields, in order.
    let extra = at + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = readU16LE(cd, extra);
      const size = readU16LE(cd, extra + 2);
      if (id === 0x0001) {
        let field = extra + 4;
        if (uncompressedSize === 0xffffffff && field + 8 <= extra + 4 + size) {
          uncompressedSize = u64(cd, field);
          field += 8;
        }
        if (compressedSize === 0xffffffff && field + 8 <= extra + 4 + size) {
          compressedSize = u64(cd, field);
          field += 8;
        }
        if (localHeaderOffset === 0xffffffff && field + 8 <= extra + 4 + size) localHeaderOffset = u64(cd, field);
      }
      extra += 4 + size;
    }
    at += 46 + nameLength + extraLength + commentLength;
    entries.push({
      name,
      localName: null,
      flags,
      method,
      crc,
      compressedSize,
      uncompressedSize,
      localHeaderOffset,
      dataOffset: null,
      encrypted: (flags & 1) !== 0,
      isDirectory: name.endsWith('/'),
    });
  }
  for (const entry of entries) {
    const header = await file.read(entry.localHeaderOffset, 30);
    if (header.length < 30 || readU32LE(header, 0) !== LOCAL) {
      problems.push(`member ${entry.name}: no local header at its offset`);
      continue;
    }
    const nameLength = readU16LE(header, 26);
    const extraLength = readU16LE(header, 28);
    const localName = await file.read(entry.localHeaderOffset + 30, nameLength);
    entry.localName = utf8Lenient.decode(localName);
    entry.dataOffset = entry.localHeaderOffset + 30 + nameLength + extraLength;
    if (entry.localName !== entry.name) {
      problems.push(`member ${entry.name}: local header names it ${JSON.stringify(entry.localName)}`);
    }
    const localFlags = readU16LE(header, 6);
    const localMethod = readU16LE(header, 8);
    if ((localFlags & 1) !== (entry.flags & 1)) {
      problems.push(`member ${entry.name}: encryption flag differs between local header and central directory`);
      entry.encrypted = true;
    }
    if (localMethod !== entry.method) problems.push(`member ${entry.name}: compression method differs between headers`);
    if (entry.dataOffset + entry.compressedSize > file.size)
      problems.push(`member ${entry.name}: data runs past the end of the file`);
  }
  const ranges = entries
    .filter((e) => e.dataOffset !== null)
    .map((e) => ({ name: e.name, start: e.localHeaderOffset, end: e.dataOffset! + e.compressedSize }))
    .sort((a, b) => a.start - b.start);
  for (let i = 1; i < ranges.length; i++) {
    if (ranges[i]!.start < ranges[i - 1]!.end) {
      problems.push(`members ${ranges[i - 1]!.name} and ${ranges[i]!.name} overlap (a zip bomb technique)`);
      break;
    }
  }
  return { entries, problems };
}

export interface InflateCaps {
  /** Bytes this member may inflate to. */
  maxOutput: number;
  /** Output/input ratio above which a member is a bomb (checked once past 1 MiB of output). */
  maxRatio: number;
  /** Receives the member's bytes in order; returns false to stop early. */
  onChunk: (chunk: Uint8Array) => boolean;
}

export class InflateCapError extends Error {}

/**
 * Streams a member's uncompressed bytes to `caps.onChunk` (return false to stop early). Stored members are read in place;
 * deflated ones are inflated chunk by chunk under `caps`. Returns the CRC-32 of what was produced and whether the
 * whole member was produced.
 */
export async function streamZipMember(
  file: RandomAccess,
  entry: ZipEntry,
  caps: InflateCaps,
): Promise<{ crc: number; bytes: number; complete: boolean }> {
  const { onChunk } = caps;
  if (entry.dataOffset === null) throw new ZipFormatError(`member ${entry.name} has no readable local header`);
  const end = Math.min(file.size, entry.dataOffset + entry.compressedSize);
  const readChunk = 1 << 20;
  let crc = 0;
  let produced = 0;
  let wanted = true;
  if (entry.method === 0) {
    for (let at = entry.dataOffset; at < end && wanted; at += readChunk) {
      const chunk = await file.read(at, Math.min(readChunk, end - at));
      crc = crc32(chunk, crc);
      produced += chunk.length;
      wanted = onChunk(chunk);
    }
    return { crc, bytes: produced, complete: wanted && end === entry.dataOffset + entry.compressedSize };
  }
  if (entry.method !== 8) throw new InflateCapError(`compression method ${entry.method} is not supported`);
  let finished: boolean;
  try {
    finished = await inflateSource(
      slice(file, entry.dataOffset, entry.compressedSize),
      'deflate',
      (chunk, consumed) => {
        produced += chunk.length;
        if (produced > caps.maxOutput) {
          throw new InflateCapError(`member ${entry.name} inflates past ${caps.maxOutput} bytes`);
        }
        if (produced > 1 << 20 && produced / Math.max(1, consumed) > caps.maxRatio) {
          throw new InflateCapError(`member ${entry.name} inflates more than ${caps.maxRatio}:1 (a zip bomb)`);
        }
        crc = crc32(chunk, crc);
        wanted = onChunk(chunk);
        return wanted;
      },
    );
  } catch (error) {
    if (error instanceof CorruptStreamError) throw new ZipFormatError(`member ${entry.name}: ${error.message}`);
    throw error;
  }
  return { crc, bytes: produced, complete: wanted && finished };
}
