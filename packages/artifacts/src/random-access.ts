// Random access to an artifact's bytes: format analysers read headers and central directories by offset and skip
// payloads, so a 20 GB file costs one small read window, never the whole file in memory (docs/artifacts.md "Limits").
import type { FileHandle } from 'node:fs/promises';

export interface RandomAccess {
  /** Total size in bytes. */
  size: number;
  /**
   * Reads `length` bytes from `offset`. The result is shorter only when the range runs past `size` (empty at or
   * after the end); a negative or non-integer range is a programming error and throws.
   */
  read(offset: number, length: number): Promise<Uint8Array>;
}

function clampRange(size: number, offset: number, length: number): [number, number] {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
    throw new RangeError(`invalid read range ${offset}+${length}`);
  }
  const start = Math.min(offset, size);
  return [start, Math.min(size, start + length)];
}

/** A view over bytes already in memory (tests, archive members inflated under a cap). Reads share the buffer. */
export function fromBytes(bytes: Uint8Array): RandomAccess {
  return {
    size: bytes.length,
    read(offset: number, length: number): Promise<Uint8Array> {
      const [start, end] = clampRange(bytes.length, offset, length);
      return Promise.resolve(bytes.subarray(start, end));
    },
  };
}

/** Reads through an open file handle; `size` is the file's size when the scan starts (a growing file is cut there). */
export function fromFileHandle(fh: FileHandle, size: number): RandomAccess {
  return {
    size,
    async read(offset: number, length: number): Promise<Uint8Array> {
      const [start, end] = clampRange(size, offset, length);
      const out = new Uint8Array(end - start);
      let filled = 0;
      while (filled < out.length) {
        const { bytesRead } = await fh.read(out, filled, out.length - filled, start + filled);
        // The file shrank under us: return what exists; analysers treat the short read as truncation.
        if (bytesRead === 0) return out.subarray(0, filled);
        filled += bytesRead;
      }
      return out;
    },
  };
}

/** A window of another RandomAccess (an uncompressed archive member stored in place): offsets are relative. */
export function slice(file: RandomAccess, start: number, length: number): RandomAccess {
  const [from, to] = clampRange(file.size, start, length);
  const size = to - from;
  return {
    size,
    read(offset: number, want: number): Promise<Uint8Array> {
      const [a, b] = clampRange(size, offset, want);
      return file.read(from + a, b - a);
    },
  };
}
