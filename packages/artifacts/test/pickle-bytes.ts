// Byte-level pickle writer for tests and benches: hand-written streams (the techniques of the public bypass samples)
// built opcode by opcode, so every hostile case is labelled before the analyser sees it. Never used on input.
import { u32le, u64le } from './support';

const text = (s: string): number[] => [...Buffer.from(s, 'utf8')];

/** Opcode builders (names as in CPython's pickletools). */
export const op = {
  proto: (version: number): number[] => [0x80, version],
  stop: [0x2e],
  mark: [0x28],
  pop: [0x30],
  dup: [0x32],
  none: [0x4e],
  tuple: [0x74],
  tuple1: [0x85],
  tuple2: [0x86],
  emptyTuple: [0x29],
  emptyList: [0x5d],
  emptyDict: [0x7d],
  append: [0x61],
  appends: [0x65],
  setitem: [0x73],
  reduce: [0x52],
  build: [0x62],
  newobj: [0x81],
  stackGlobal: [0x93],
  memoize: [0x94],
  binpersid: [0x51],
  binint1: (n: number): number[] => [0x4b, n],
  global: (module: string, name: string): number[] => [0x63, ...text(`${module}\n${name}\n`)],
  inst: (module: string, name: string): number[] => [0x69, ...text(`${module}\n${name}\n`)],
  string: (quoted: string): number[] => [0x53, ...text(`${quoted}\n`)],
  unicode: (s: string): number[] => [0x56, ...text(`${s}\n`)],
  short: (s: string): number[] => {
    const bytes = text(s);
    return [0x8c, bytes.length, ...bytes];
  },
  binunicode: (s: string): number[] => {
    const bytes = text(s);
    return [0x58, ...u32le(bytes.length), ...bytes];
  },
  binbytes: (bytes: ArrayLike<number>): number[] => [0x42, ...u32le(bytes.length), ...Array.from(bytes)],
  binput: (index: number): number[] => [0x71, index],
  binget: (index: number): number[] => [0x68, index],
  put: (index: number): number[] => [0x70, ...text(`${index}\n`)],
  get: (index: number): number[] => [0x67, ...text(`${index}\n`)],
  ext1: (code: number): number[] => [0x82, code],
  frame: (length: number): number[] => [0x95, ...u64le(length)],
};

export function pickle(...parts: (number[] | number)[]): Uint8Array {
  return new Uint8Array(parts.flatMap((p) => (typeof p === 'number' ? [p] : p)));
}

/** `os.system(command)` as protocol 4 writes it: STACK_GLOBAL of two memoised strings, then REDUCE. */
export function osSystemPickle(command = 'id'): Uint8Array {
  return pickle(
    op.proto(4),
    op.short('os'),
    op.memoize,
    op.short('system'),
    op.memoize,
    op.stackGlobal,
    op.memoize,
    op.short(command),
    op.tuple1,
    op.reduce,
    op.stop,
  );
}

/** A tiny benign torch-style state dict: OrderedDict with one tensor rebuilt from a persistent storage id. */
export function torchStatePickle(): Uint8Array {
  return pickle(
    op.proto(2),
    op.global('collections', 'OrderedDict'),
    op.emptyTuple,
    op.reduce,
    op.short('weight'),
    op.global('torch._utils', '_rebuild_tensor_v2'),
    op.mark,
    op.mark,
    op.short('storage'),
    op.global('torch', 'FloatStorage'),
    op.short('0'),
    op.short('cpu'),
    op.binint1(4),
    op.tuple,
    op.binpersid,
    op.binint1(0),
    op.binint1(4),
    op.tuple1,
    op.binint1(1),
    op.tuple1,
    0x89, // NEWFALSE
    op.global('collections', 'OrderedDict'),
    op.emptyTuple,
    op.reduce,
    op.tuple,
    op.reduce,
    op.setitem,
    op.stop,
  );
}

/** A protocol 4 pickle of `opcodes` opcodes that does nothing: NONE/POP pairs, then NONE STOP (the 10⁷-opcode case). */
export function opcodeFloodPickle(opcodes: number): Uint8Array {
  const pairs = Math.max(0, Math.floor((opcodes - 3) / 2));
  const bytes = new Uint8Array(2 + pairs * 2 + 2);
  bytes.set([0x80, 4]);
  for (let i = 2; i < bytes.length - 2; i += 2) {
    bytes[i] = 0x4e;
    bytes[i + 1] = 0x30;
  }
  bytes.set([0x4e, 0x2e], bytes.length - 2);
  return bytes;
}
