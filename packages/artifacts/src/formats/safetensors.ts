// safetensors: an 8-byte little-endian header length, a JSON header, then the tensor bytes (docs/artifacts.md
// "safetensors"). Loading never runs code, so the risks are a header the reference loader would reject (a parser
// differential: invalid) and code-like text in `__metadata__` that some tool downstream might evaluate (suspicious).
import format from '../../data/safetensors-format.json';
import type { RandomAccess } from '../random-access';
import type { ArtifactFinding, FormatAnalysis } from '../types';
import { readU64LE } from '../little-endian';
import { excerpt, utf8Strict } from './byte-cursor';
import { codeLikeContent } from './metadata-code';

const MAX_HEADER_BYTES = format.max_header_bytes;
/** Our own memory cap for the JSON header (the format allows 100 MB; real models stay under a few MB). */
const HEADER_MEMORY_CAP = 32 * 1024 * 1024;
const DTYPE_BITS: Record<string, number> = format.dtype_bits;

interface TensorSpan {
  name: string;
  begin: number;
  end: number;
}

export async function analyseSafetensors(file: RandomAccess): Promise<FormatAnalysis> {
  const facts: Record<string, unknown> = {};
  const result = (extra: Partial<FormatAnalysis> = {}, findings: ArtifactFinding[] = []): FormatAnalysis => ({
    format: 'safetensors',
    findings,
    facts,
    ...extra,
  });
  if (file.size < 8) return result({ invalid: 'shorter than the 8-byte header length' });
  const lengthBytes = await file.read(0, 8);
  const rawLength = readU64LE(lengthBytes, 0);
  const headerLength = Number.isSafeInteger(rawLength) ? rawLength : undefined;
  facts.header_length = headerLength ?? 'over 2^53';
  if (headerLength === undefined || headerLength > MAX_HEADER_BYTES) {
    return result({ invalid: `header length over the format's ${MAX_HEADER_BYTES}-byte limit` });
  }
  if (headerLength > file.size - 8) return result({ invalid: 'header length runs past the end of the file' });
  if (headerLength < 2) return result({ invalid: 'header too short for a JSON object' });
  if (headerLength > HEADER_MEMORY_CAP) {
    return result({ unscannable: `header of ${headerLength} bytes is over the ${HEADER_MEMORY_CAP}-byte scan cap` });
  }

  let header: unknown;
  try {
    const bytes = await file.read(8, headerLength);
    if (bytes.length !== headerLength) return result({ invalid: 'header truncated' });
    // The reference loader requires UTF-8 and an object; trailing spaces pad the header to an alignment.
    if (bytes[0] !== 0x7b) return result({ invalid: 'header does not start with "{"' });
    header = JSON.parse(utf8Strict.decode(bytes));
  } catch {
    return result({ invalid: 'header is not UTF-8 JSON' });
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) {
    return result({ invalid: 'header is not a JSON object' });
  }

  const dataStart = 8 + headerLength;
  const dataLength = file.size - dataStart;
  const findings: ArtifactFinding[] = [];
  const spans: TensorSpan[] = [];
  const dtypes = new Set<string>();
  for (const [name, entry] of Object.entries(header as Record<string, unknown>)) {
    if (name === '__metadata__') {
      const problem = checkMetadata(entry, findings);
      if (problem) return result({ invalid: problem });
      continue;
    }
    const span = tensorSpan(name, entry);
    if (typeof span === 'string') return result({ invalid: span });
    spans.push(span);
    dtypes.add((entry as { dtype: string }).dtype);
  }
  facts.tensor_count = spans.length;
  facts.dtypes = [...dtypes].sort();
  facts.data_bytes = dataLength;

  // The reference loader's rule: sorted by offset the tensors start at 0, touch each other and end at the buffer's
  // end. Overlap lets two names alias the same bytes; a gap or tail hides bytes no tensor accounts for.
  spans.sort((a, b) => a.begin - b.begin || a.end - b.end);
  let expected = 0;
  for (const span of spans) {
    if (span.begin !== expected) {
      const what = span.begin < expected ? 'overlaps the previous tensor' : 'leaves a gap before it';
      return result({ invalid: `tensor ${JSON.stringify(span.name)} ${what} (offset ${span.begin})` });
    }
    expected = span.end;
  }
  if (expected !== dataLength) {
    return result({ invalid: `tensors cover ${expected} bytes but the data section holds ${dataLength}` });
  }
  return result({}, findings);
}

/** The tensor's byte span, or why the entry is invalid. */
function tensorSpan(name: string, entry: unknown): TensorSpan | string {
  const label = `tensor ${JSON.stringify(name.slice(0, 100))}`;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return `${label} is not an object`;
  const { dtype, shape, data_offsets: offsets } = entry as Record<string, unknown>;
  if (typeof dtype !== 'string' || !(dtype in DTYPE_BITS)) return `${label} has an unknown dtype`;
  if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && (d as number) >= 0)) {
    return `${label} has a malformed shape`;
  }
  if (
    !Array.isArray(offsets) ||
    offsets.length !== 2 ||
    !offsets.every((o) => Number.isSafeInteger(o) && (o as number) >= 0)
  ) {
    return `${label} has malformed data_offsets`;
  }
  const [begin, end] = offsets as [number, number];
  if (end < begin) return `${label} ends before it begins`;
  // BigInt: a hostile shape's product overflows a double long before it is compared with the offsets.
  const bits = shape.reduce((n: bigint, d: number) => n * BigInt(d), 1n) * BigInt(DTYPE_BITS[dtype]!);
  if (bits % 8n !== 0n) return `${label} does not fill whole bytes`;
  if (bits / 8n !== BigInt(end - begin)) return `${label}'s dtype and shape disagree with its data_offsets`;
  return { name, begin, end };
}

/** `__metadata__` must map strings to strings; code-like values are reported. Returns why it is invalid, if it is. */
function checkMetadata(metadata: unknown, findings: ArtifactFinding[]): string | undefined {
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
    return '__metadata__ is not an object';
  }
  for (const [key, value] of Object.entries(metadata as Record<string, unknown>)) {
    if (typeof value !== 'string') return `__metadata__ value ${JSON.stringify(key.slice(0, 100))} is not a string`;
    const hits = codeLikeContent(value);
    if (hits.length > 0) {
      findings.push({
        id: 'safetensors.code_in_metadata',
        severity: 'medium',
        verdict: 'suspicious',
        message:
          `__metadata__ key ${JSON.stringify(key.slice(0, 100))} holds ${hits.join(', ')}; ` +
          'safetensors never runs it, but a tool that evaluates metadata would',
        evidence: { excerpt: excerpt(`${key}: ${value}`) },
      });
    }
  }
  return undefined;
}
