// Little-endian integers read from bytes already in memory (zip records, pickle opcode arguments, npy headers). The
// ByteCursor (formats/byte-cursor.ts) reads through a window and handles big-endian GGUF as well.

export function readU16LE(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8);
}

export function readU32LE(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)) + b[at + 3]! * 0x1000000;
}

/** A u64 as a number: exact below 2^53; callers reject anything that is not a safe integer as a size. */
export function readU64LE(b: Uint8Array, at: number): number {
  return readU32LE(b, at) + readU32LE(b, at + 4) * 0x100000000;
}
