// Shared by the analyser's tests and bench (kept out of src/ so the build does not ship it): the labelled data set
// (read as bytes only: the files are hostile) and byte builders for hand-written headers and protobuf messages.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ArtifactFormat, ArtifactVerdict } from '../src/types';
import { DEFAULT_DATASET as DATASET_DIR } from '../scripts/eval-artifacts';

export interface LabelledFile {
  file: string;
  format: ArtifactFormat;
  verdict: ArtifactVerdict;
  what: string;
}

export function labelledFiles(format: ArtifactFormat): LabelledFile[] {
  const labels = JSON.parse(readFileSync(path.join(DATASET_DIR, 'labels.json'), 'utf8')) as LabelledFile[];
  return labels.filter((label) => label.format === format);
}

export function datasetBytes(file: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(DATASET_DIR, file)));
}

/** Little-endian integer bytes for hand-written headers. */
export function u32le(value: number): number[] {
  return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];
}

export function u64le(value: bigint | number): number[] {
  const v = BigInt(value);
  return Array.from({ length: 8 }, (_, i) => Number((v >> BigInt(8 * i)) & 0xffn));
}

export function utf8(text: string): number[] {
  return [...Buffer.from(text, 'utf8')];
}

/** Protobuf wire-format builders for hand-written ONNX and SavedModel messages. */
export const pb = {
  varint(value: number | bigint): number[] {
    let v = BigInt(value);
    const out: number[] = [];
    do {
      const byte = Number(v & 0x7fn);
      v >>= 7n;
      out.push(v > 0n ? byte | 0x80 : byte);
    } while (v > 0n);
    return out;
  },
  int(field: number, value: number | bigint): number[] {
    return [...pb.varint((field << 3) | 0), ...pb.varint(value)];
  },
  message(field: number, payload: number[]): number[] {
    return [...pb.varint((field << 3) | 2), ...pb.varint(payload.length), ...payload];
  },
  string(field: number, text: string): number[] {
    return pb.message(field, utf8(text));
  },
};
