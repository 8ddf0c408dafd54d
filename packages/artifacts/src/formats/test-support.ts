// Shared by the format analysers' tests: the labelled data set (read as bytes only: the files are hostile) and the
// verdict a FormatAnalysis stands for (the worst of its findings, `invalid` and `unscannable`; docs/artifacts.md).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ArtifactFormat, ArtifactVerdict, FormatAnalysis } from '../types';
import { VERDICT_RANK } from '../types';

/** The benchmark data set beside the repository (CI checks it out as ../shared). */
export const DATASET_DIR = path.resolve(__dirname, '../../../../../shared/data/model-artifacts');

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

export function verdictOf(analysis: FormatAnalysis): ArtifactVerdict {
  let verdict: ArtifactVerdict = 'benign';
  const raise = (candidate: ArtifactVerdict): void => {
    if (VERDICT_RANK[candidate] > VERDICT_RANK[verdict]) verdict = candidate;
  };
  for (const finding of analysis.findings) raise(finding.verdict);
  if (analysis.invalid !== undefined) raise('invalid');
  if (analysis.unscannable !== undefined) raise('unscannable');
  return verdict;
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
