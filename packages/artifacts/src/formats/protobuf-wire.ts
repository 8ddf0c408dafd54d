// A bounded protobuf wire-format walker for ONNX ModelProto and TensorFlow SavedModel (docs/artifacts.md "ONNX",
// "TensorFlow SavedModel"). It yields field headers with their byte ranges and never copies a length-delimited payload
// it is not asked for, so multi-GB initializers and constants are skipped by offset. Small sub-messages are read once
// into memory; large ones are walked through a window.
import type { RandomAccess } from '../random-access';
import type { FormatAnalysis } from '../types';
import { ByteCursor, TruncatedError, utf8Lenient } from './byte-cursor';

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_FIXED32 = 5;

/** Not a well-formed protobuf message (bad wire type, field 0, a length past the end). */
export class MalformedProtobuf extends Error {}
/** Over a walk cap (fields visited, nesting depth). */
export class ProtobufCapExceeded extends Error {}

export interface WireField {
  field: number;
  wire: number;
  /** The value of a varint field (wire type 0). */
  varint: bigint;
  /** Byte range of a length-delimited payload (wire type 2), absolute in the file. */
  start: number;
  end: number;
}

/**
 * How a protobuf walk that threw ends: bytes that run out or do not parse are `invalid`, a walk over its caps is
 * `unscannable` (docs/artifacts.md "Limits"). Any other error is rethrown.
 */
export function walkFailure(error: unknown): Pick<FormatAnalysis, 'invalid' | 'unscannable'> {
  if (error instanceof TruncatedError) return { invalid: `truncated at byte ${error.offset}` };
  if (error instanceof MalformedProtobuf) return { invalid: `malformed protobuf: ${error.message}` };
  if (error instanceof ProtobufCapExceeded) return { unscannable: error.message };
  throw error;
}

/** Caps shared by one walk over a file. */
export class WalkBudget {
  fields = 0;
  constructor(
    readonly maxFields = 50_000_000,
    readonly maxDepth = 64,
  ) {}

  count(): void {
    if (++this.fields > this.maxFields) throw new ProtobufCapExceeded(`more than ${this.maxFields} protobuf fields`);
  }

  enter(depth: number): void {
    if (depth > this.maxDepth) throw new ProtobufCapExceeded(`messages nested deeper than ${this.maxDepth}`);
  }
}

/** Sub-messages up to this size are read in one piece. */
const IN_MEMORY_BYTES = 4 << 20;

/** A view of one message's bytes: in memory when small, the file itself otherwise. */
export async function messageSource(file: RandomAccess, start: number, end: number): Promise<RandomAccess> {
  if (end - start > IN_MEMORY_BYTES) return file;
  const bytes = await file.read(start, end - start);
  if (bytes.length !== end - start) throw new TruncatedError(start + bytes.length);
  return {
    size: end,
    read: async (offset: number, length: number) => bytes.subarray(offset - start, offset - start + length),
  };
}

/** A message's byte range, optionally with the field numbers the caller wants (others are skipped, not yielded). */
export interface MessageRange {
  start: number;
  end: number;
  wanted?: ReadonlySet<number>;
  /**
   * Wanted fields yielded only at their first occurrence (presence checks on repeated, possibly unpacked data). Read
   * at every field, so a caller may add one once it has seen enough of it.
   */
  once?: ReadonlySet<number>;
}

/** The fields of the message in [start, end), in order. */
export async function* fieldsOf(
  file: RandomAccess,
  range: MessageRange,
  budget: WalkBudget,
): AsyncGenerator<WireField> {
  const source = await messageSource(file, range.start, range.end);
  const cursor = new ByteCursor(source, range.start, range.end);
  const seen = range.once ? new Set<number>() : undefined;
  while (cursor.remaining > 0) {
    budget.count();
    const tag = await readVarint(cursor);
    const field = Math.floor(tag / 8);
    const wire = tag % 8;
    if (field === 0 || field > 536_870_911) throw new MalformedProtobuf(`field number ${field} at ${cursor.position}`);
    let yielded: WireField;
    if (wire === WIRE_VARINT) {
      const at = cursor.position;
      const value = await readVarintBig(cursor);
      yielded = { field, wire, varint: value, start: at, end: cursor.position };
    } else if (wire === WIRE_LEN) {
      const length = await readVarint(cursor);
      if (length > cursor.remaining) {
        throw new MalformedProtobuf(`field ${field} of ${length} bytes runs past its message at ${cursor.position}`);
      }
      const start = cursor.position;
      cursor.skip(length);
      yielded = { field, wire, varint: 0n, start, end: cursor.position };
    } else if (wire === WIRE_FIXED64 || wire === WIRE_FIXED32) {
      const start = cursor.position;
      cursor.skip(wire === WIRE_FIXED64 ? 8 : 4);
      yielded = { field, wire, varint: 0n, start, end: cursor.position };
    } else {
      // Groups (3, 4) are not used by ONNX or TensorFlow messages; 6 and 7 do not exist.
      throw new MalformedProtobuf(`wire type ${wire} at ${cursor.position}`);
    }
    if (range.wanted && !range.wanted.has(field)) continue;
    if (seen && range.once?.has(field)) {
      if (seen.has(field)) continue;
      seen.add(field);
    }
    yield yielded;
  }
}

/**
 * A varint as a number; values of 2^53 and more (never a valid length or tag here) come back as Infinity, so they fail
 * every bounds check. Reads from the window without a promise when the bytes are there.
 */
async function readVarint(cursor: ByteCursor): Promise<number> {
  const want = Math.min(10, cursor.remaining);
  if (!cursor.buffered(want)) await cursor.need(want);
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (cursor.remaining === 0) throw new TruncatedError(cursor.position);
    const byte = cursor.take(1)[0]!;
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if ((byte & 0x80) === 0) return value > Number.MAX_SAFE_INTEGER ? Infinity : value;
  }
  throw new MalformedProtobuf(`varint longer than 10 bytes at ${cursor.position}`);
}

/** A varint field's exact value (int64 fields may use all 64 bits). */
async function readVarintBig(cursor: ByteCursor): Promise<bigint> {
  const want = Math.min(10, cursor.remaining);
  if (!cursor.buffered(want)) await cursor.need(want);
  let value = 0n;
  for (let i = 0; i < 10; i++) {
    if (cursor.remaining === 0) throw new TruncatedError(cursor.position);
    const byte = cursor.take(1)[0]!;
    value |= BigInt(byte & 0x7f) << BigInt(7 * i);
    if ((byte & 0x80) === 0) return BigInt.asUintN(64, value);
  }
  throw new MalformedProtobuf(`varint longer than 10 bytes at ${cursor.position}`);
}

/** A string field's text, cut at `max` bytes (names, domains and paths are short; a long one is reported cut). */
export async function readString(file: RandomAccess, field: WireField, max = 4096): Promise<string> {
  const length = Math.min(field.end - field.start, max);
  const bytes = await file.read(field.start, length);
  return utf8Lenient.decode(bytes);
}

/**
 * Whether `head` (the first bytes of a file) parses as a run of fields whose numbers and wire types are in `allowed`
 * (field number → wire type), up to where a field runs past the head. Used for format detection only.
 */
export function headMatches(
  head: Uint8Array,
  allowed: ReadonlyMap<number, number>,
  check?: (field: number, payload: Uint8Array) => boolean,
): { ok: boolean; fields: number[] } {
  const fields: number[] = [];
  const cursor = { at: 0 };
  while (cursor.at < head.length) {
    const tag = varintAt(head, cursor);
    if (tag === undefined) break;
    const field = Math.floor(tag / 8);
    const wire = tag % 8;
    if (allowed.get(field) !== wire) return { ok: false, fields };
    fields.push(field);
    if (wire === WIRE_VARINT) {
      if (varintAt(head, cursor) === undefined) break;
    } else if (wire === WIRE_LEN) {
      const length = varintAt(head, cursor);
      if (length === undefined || length > head.length - cursor.at) break;
      const payload = head.subarray(cursor.at, cursor.at + length);
      if (check && !check(field, payload)) return { ok: false, fields };
      cursor.at += length;
    } else {
      cursor.at += wire === WIRE_FIXED64 ? 8 : 4;
    }
  }
  return { ok: fields.length > 0, fields };
}

/** Whether `bytes` (a whole message) parses exactly as fields whose numbers and wire types are in `allowed`. */
export function parsesExactly(bytes: Uint8Array, allowed: ReadonlyMap<number, number>): boolean {
  const cursor = { at: 0 };
  while (cursor.at < bytes.length) {
    const tag = varintAt(bytes, cursor);
    if (tag === undefined) return false;
    const wire = tag % 8;
    if (allowed.get(Math.floor(tag / 8)) !== wire) return false;
    if (wire === WIRE_VARINT) {
      if (varintAt(bytes, cursor) === undefined) return false;
    } else if (wire === WIRE_LEN) {
      const length = varintAt(bytes, cursor);
      if (length === undefined || length > bytes.length - cursor.at) return false;
      cursor.at += length;
    } else {
      cursor.at += wire === WIRE_FIXED64 ? 8 : 4;
      if (cursor.at > bytes.length) return false;
    }
  }
  return true;
}

/**
 * The varint at `cursor.at` in bytes already in memory, advancing the cursor; undefined when the bytes end first or
 * it runs past 10 bytes. Past 2^53 the value is inexact, which no tag or length the detectors accept comes near.
 */
function varintAt(bytes: Uint8Array, cursor: { at: number }): number | undefined {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10 && cursor.at < bytes.length; i++) {
    const byte = bytes[cursor.at++]!;
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if ((byte & 0x80) === 0) return value;
  }
  return undefined;
}
