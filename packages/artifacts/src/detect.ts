// Format detection from the first bytes and their structure, never from a file name (docs/artifacts.md "Formats").
// Protobuf formats have no magic: the ONNX and SavedModel modules decide from the field structure of the head.
import { looksLikeOnnx } from './formats/onnx';
import { readU64LE } from './little-endian';
import { looksLikeSavedModel } from './formats/savedmodel';

export type DetectedKind =
  | 'zip'
  | 'pickle'
  | 'pickle_text'
  | 'pytorch_legacy'
  | 'npy'
  | 'hdf5'
  | 'gguf'
  | 'safetensors'
  | 'onnx'
  | 'savedmodel'
  | 'zlib'
  | 'gzip'
  | 'joblib_zfile'
  | 'bz2'
  | 'xz'
  | 'lzma'
  | 'lz4'
  | '7z'
  | 'tar'
  | 'unknown';

/** Bytes of the head detection looks at (the safetensors length prefix and protobuf heads fit). */
export const HEAD_BYTES = 64 * 1024;

/** `torch.save` legacy format: the first pickle is the magic number 0x1950a86a20f9469cfc6c (LONG1 of 10 bytes). */
const TORCH_LEGACY_MAGIC = [0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19, 0x2e];

function startsWith(head: Uint8Array, bytes: readonly number[], at = 0): boolean {
  if (head.length < at + bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (head[at + i] !== bytes[i]) return false;
  return true;
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/**
 * Opcodes a protocol 0 or 1 pickle starts with (no PROTO opcode): MARK, GLOBAL, INST, the empty containers, the
 * constants and the text and binary scalars. A text file can start with one of these too, so the caller confirms by
 * walking the head.
 */
const PROTOCOL_0_1_FIRST = new Set(ascii('(cd}l])NIJKLMFGSTUVX'));

export function detect(head: Uint8Array, size: number): DetectedKind {
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  if (startsWith(head, [0x93, ...ascii('NUMPY')])) return 'npy';
  if (startsWith(head, [0x89, ...ascii('HDF\r\n'), 0x1a, 0x0a])) return 'hdf5';
  if (startsWith(head, ascii('GGUF'))) return 'gguf';
  if (startsWith(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return '7z';
  if (startsWith(head, ascii('ustar'), 257)) return 'tar';
  if (startsWith(head, TORCH_LEGACY_MAGIC)) return 'pytorch_legacy';
  if (head.length >= 2 && head[0] === 0x80 && head[1]! >= 2 && head[1]! <= 5) return 'pickle';
  if (head.length >= 9 && head[8] === 0x7b) {
    // Inexact past 2^53, where it is past any size anyway.
    const headerLength = readU64LE(head, 0);
    if (headerLength > 1 && headerLength + 8 <= size) return 'safetensors';
  }
  if (startsWith(head, [0x1f, 0x8b])) return 'gzip';
  if (startsWith(head, ascii('BZh'))) return 'bz2';
  if (startsWith(head, [0xfd, ...ascii('7zXZ'), 0x00])) return 'xz';
  if (startsWith(head, [0x04, 0x22, 0x4d, 0x18])) return 'lz4';
  if (startsWith(head, ascii('ZF'))) return 'joblib_zfile';
  if (startsWith(head, [0x5d, 0x00, 0x00])) return 'lzma';
  if (head.length >= 2 && head[0] === 0x78 && ((head[0] << 8) | head[1]!) % 31 === 0) return 'zlib';
  if (looksLikeSavedModel(head)) return 'savedmodel';
  if (looksLikeOnnx(head)) return 'onnx';
  if (head.length > 0 && PROTOCOL_0_1_FIRST.has(head[0]!)) return 'pickle_text';
  return 'unknown';
}
