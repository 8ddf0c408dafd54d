// Throughput of analyseFile against SHA-256 over the same bytes in the same run (the floor for any scan that reads
// every byte; docs/artifacts.md "Throughput"). Writes a pickle-bearing PyTorch zip, a safetensors file and a large
// pickle to a temporary directory, times each, prints the ratio (target: at least 0.5) and removes the files.
// Run: pnpm exec tsx packages/artifacts/bench/throughput.ts [MiB per file, default 256]
import { createHash } from 'node:crypto';
import { mkdtempSync, openSync, closeSync, writeSync, rmSync, readSync, fstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyseFile } from '../src/index';
import { crc32 } from 'node:zlib';
import { op, pickle, torchStatePickle } from '../test/pickle-bytes';
import { u32le, u64le } from '../test/support';

const MiB = 1 << 20;

function sha256File(file: string): number {
  const started = performance.now();
  const fd = openSync(file, 'r');
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(MiB);
  const size = fstatSync(fd).size;
  for (let at = 0; at < size;) {
    const n = readSync(fd, buffer, 0, MiB, at);
    hash.update(buffer.subarray(0, n));
    at += n;
  }
  closeSync(fd);
  hash.digest();
  return performance.now() - started;
}

/** Appends `total` bytes of a repeated block to an open file (tensor data stand-in). */
function writeFilled(fd: number, total: number): void {
  const block = Buffer.alloc(MiB, 0x3f);
  for (let left = total; left > 0; left -= MiB) writeSync(fd, block, 0, Math.min(MiB, left));
}

/** A stored zip written member by member: the storage member streams from a repeated block, CRC included. */
function torchZip(file: string, bytes: number): void {
  const fd = openSync(file, 'w');
  const u16 = (v: number): number[] => [v & 0xff, (v >>> 8) & 0xff];
  const central: number[] = [];
  let offset = 0;
  const member = (name: string, size: number, crc: number, write: () => void): void => {
    const nameBytes = [...Buffer.from(name)];
    const fixed = [
      ...u16(20),
      ...u16(0),
      ...u16(0),
      ...u16(0),
      ...u16(0),
      ...u32le(crc),
      ...u32le(size),
      ...u32le(size),
    ];
    const local = Buffer.from([...u32le(0x04034b50), ...fixed, ...u16(nameBytes.length), ...u16(0), ...nameBytes]);
    writeSync(fd, local);
    write();
    central.push(...u32le(0x02014b50), ...u16(20), ...fixed, ...u16(nameBytes.length), ...u16(0), ...u16(0), ...u16(0));
    central.push(...u16(0), ...u32le(0), ...u32le(offset), ...nameBytes);
    offset += local.length + size;
  };
  const statePickle = torchStatePickle();
  member('archive/data.pkl', statePickle.length, crc32(statePickle), () => writeSync(fd, statePickle));
  const block = Buffer.alloc(MiB, 0x3f);
  let crc = 0;
  for (let left = bytes; left > 0; left -= MiB) crc = crc32(block.subarray(0, Math.min(MiB, left)), crc);
  member('archive/data/0', bytes, crc, () => writeFilled(fd, bytes));
  writeSync(fd, Buffer.from(central));
  writeSync(
    fd,
    Buffer.from([...u32le(0x06054b50), 0, 0, 0, 0, 2, 0, 2, 0, ...u32le(central.length), ...u32le(offset), 0, 0]),
  );
  closeSync(fd);
}

function safetensors(file: string, bytes: number): void {
  const header = Buffer.from(
    JSON.stringify({ weight: { dtype: 'F32', shape: [bytes / 4], data_offsets: [0, bytes] } }),
  );
  const fd = openSync(file, 'w');
  writeSync(fd, Buffer.from(u64le(header.length)));
  writeSync(fd, header);
  writeFilled(fd, bytes);
  closeSync(fd);
}

function bigPickle(file: string, bytes: number): void {
  // A list of many small tensors-like tuples: the walk's per-opcode cost, not a skipped payload.
  const item = pickle(op.mark, op.short('layer.weight'), op.binint1(3), op.binint1(4), op.tuple, op.append);
  const fd = openSync(file, 'w');
  writeSync(fd, pickle(op.proto(4), op.emptyList));
  const block = Buffer.alloc(Math.floor(MiB / item.length) * item.length);
  for (let i = 0; i < block.length; i += item.length) block.set(item, i);
  for (let written = 0; written < bytes; written += block.length) writeSync(fd, block);
  writeSync(fd, pickle(op.stop));
  closeSync(fd);
}

async function measure(name: string, file: string): Promise<void> {
  sha256File(file); // warm the page cache so both passes read from memory
  const shaMs = Math.min(sha256File(file), sha256File(file));
  let scanMs = Number.POSITIVE_INFINITY;
  let verdict = '';
  for (let i = 0; i < 2; i++) {
    const started = performance.now();
    verdict = (await analyseFile(file)).verdict;
    scanMs = Math.min(scanMs, performance.now() - started);
  }
  const size = fstatSync(openSync(file, 'r')).size;
  const ratio = shaMs / scanMs;
  console.log(
    `${name.padEnd(16)} ${(size / MiB).toFixed(0).padStart(6)} MiB  sha256 ${shaMs.toFixed(0).padStart(6)} ms  ` +
      `analyseFile ${scanMs.toFixed(0).padStart(6)} ms (hash included)  ratio ${ratio.toFixed(2)}  verdict ${verdict}` +
      `${ratio < 0.5 ? '  BELOW TARGET 0.5' : ''}`,
  );
}

async function main(): Promise<void> {
  const mib = Number(process.argv[2] ?? 256);
  const dir = mkdtempSync(path.join(tmpdir(), 'artifacts-bench-'));
  try {
    const zipFile = path.join(dir, 'model.pt');
    torchZip(zipFile, mib * MiB);
    await measure('pytorch_zip', zipFile);
    rmSync(zipFile);
    const stFile = path.join(dir, 'model.safetensors');
    safetensors(stFile, mib * MiB);
    await measure('safetensors', stFile);
    rmSync(stFile);
    const pklFile = path.join(dir, 'model.pkl');
    bigPickle(pklFile, Math.max(1, Math.floor(mib / 8)) * MiB);
    await measure('pickle (opcodes)', pklFile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
