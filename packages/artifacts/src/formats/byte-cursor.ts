// A sequential reader over a RandomAccess with a bounded window: format walkers (GGUF key/values, protobuf fields)
// read small headers through it and skip large payloads by offset, so memory stays at one window whatever the file
// size (docs/artifacts.md "Limits").
import { readU32LE } from '../little-endian';
import type { RandomAccess } from '../random-access';

/** Thrown when the bytes end before a structure does: the format analysers turn it into verdict `invalid`. */
export class TruncatedError extends Error {
  constructor(readonly offset: number) {
    super(`truncated at byte ${offset}`);
  }
}

const WINDOW_BYTES = 1 << 20;

export class ByteCursor {
  private window: Uint8Array = new Uint8Array(0);
  private windowStart = 0;
  /** Absolute offset of the next byte to read. */
  position: number;

  constructor(
    private readonly file: RandomAccess,
    start = 0,
    /** Exclusive end: reads past it are truncation, even when the file goes on (a sub-range of the file). */
    readonly end = file.size,
  ) {
    this.position = start;
  }

  get remaining(): number {
    return this.end - this.position;
  }

  /** Makes `length` bytes from the position available in the window; `length` must stay small (headers). */
  async need(length: number): Promise<void> {
    if (length > this.remaining) throw new TruncatedError(this.end);
    const offsetInWindow = this.position - this.windowStart;
    if (offsetInWindow >= 0 && offsetInWindow + length <= this.window.length) return;
    const want = Math.min(Math.max(length, WINDOW_BYTES), this.end - this.position);
    const bytes = await this.file.read(this.position, want);
    if (bytes.length < length) throw new TruncatedError(this.position + bytes.length);
    this.window = bytes;
    this.windowStart = this.position;
  }

  /** Bytes at the position (after `need`), without copying; advances. */
  take(length: number): Uint8Array {
    const at = this.position - this.windowStart;
    if (at < 0 || at + length > this.window.length) throw new Error('ByteCursor.take outside the window');
    this.position += length;
    return this.window.subarray(at, at + length);
  }

  async bytes(length: number): Promise<Uint8Array> {
    await this.need(length);
    return this.take(length);
  }

  /** Whether `length` bytes from the position are already in the window (the synchronous readers need them). */
  buffered(length: number): boolean {
    const at = this.position - this.windowStart;
    return at >= 0 && at + length <= this.window.length;
  }

  /** A u32 from the window (after `need(4)` or `buffered(4)`). */
  u32Now(littleEndian: boolean): number {
    const b = this.take(4);
    return littleEndian ? readU32LE(b, 0) : ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
  }

  /** A u64 from the window as a number; Infinity when it exceeds 2^53 (never trusted as a size anyway). */
  u64NumberNow(littleEndian: boolean): number {
    const first = this.u32Now(littleEndian);
    const second = this.u32Now(littleEndian);
    const [low, high] = littleEndian ? [first, second] : [second, first];
    return high >= 0x200000 ? Infinity : high * 0x100000000 + low;
  }

  /** Bytes at an absolute offset (up to `length`, fewer at the end of the range); the position does not move. */
  async bytesAt(offset: number, length: number): Promise<Uint8Array> {
    return this.file.read(offset, Math.max(0, Math.min(length, this.end - offset)));
  }

  skip(length: number): void {
    if (length > this.remaining) throw new TruncatedError(this.end);
    this.position += length;
  }

  async u32(littleEndian: boolean): Promise<number> {
    await this.need(4);
    return this.u32Now(littleEndian);
  }

  async u64(littleEndian: boolean): Promise<bigint> {
    const b = await this.bytes(8);
    return new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0, littleEndian);
  }
}

/** A bigint read from the file as a safe JS number, or undefined when it exceeds 2^53 (never trusted as a size). */
export function toSafeNumber(value: bigint): number | undefined {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined;
}

/** A short excerpt for finding evidence (the result model allows at most 200 characters). */
export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

export const utf8Strict = new TextDecoder('utf-8', { fatal: true });
export const utf8Lenient = new TextDecoder('utf-8');
