// The NumPy .npy header (numpy/lib/format.py): magic, version, a length-prefixed Python dict literal with descr,
// fortran_order and shape. An object dtype (`|O`, or an `O` field of a structured dtype) means a pickle follows the
// header. The literal is read with regular expressions, never evaluated.
import { readU16LE, readU32LE } from '../little-endian';
import type { RandomAccess } from '../random-access';

export interface NpyHeader {
  descr: string;
  shape: number[];
  fortranOrder: boolean;
  hasObject: boolean;
  dataOffset: number;
  /** Bytes of array data the header promises, null when the dtype's size is not simple to tell (structured). */
  dataBytes: number | null;
}

const MAX_HEADER = 1 << 20;

export async function analyseNpyHeader(file: RandomAccess): Promise<NpyHeader | { invalid: string }> {
  const fixed = await file.read(0, 12);
  if (fixed.length < 10) return { invalid: 'npy header truncated' };
  const major = fixed[6]!;
  let headerLength: number;
  let headerStart: number;
  if (major === 1) {
    headerLength = readU16LE(fixed, 8);
    headerStart = 10;
  } else if (major === 2 || major === 3) {
    if (fixed.length < 12) return { invalid: 'npy header truncated' };
    headerLength = readU32LE(fixed, 8);
    headerStart = 12;
  } else return { invalid: `unsupported npy version ${major}` };
  if (headerLength > MAX_HEADER) return { invalid: 'npy header longer than 1 MiB' };
  const raw = await file.read(headerStart, headerLength);
  if (raw.length < headerLength) return { invalid: 'npy header truncated' };
  const text = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(raw);
  const descr = dictValue(text, 'descr');
  const shapeText = dictValue(text, 'shape');
  const fortran = dictValue(text, 'fortran_order');
  if (descr === null || shapeText === null || (fortran !== 'True' && fortran !== 'False')) {
    return { invalid: 'npy header is not a descr/shape/fortran_order dict' };
  }
  if (!shapeText.startsWith('(') || !shapeText.endsWith(')')) return { invalid: 'npy shape is not a tuple' };
  const dims = shapeText
    .slice(1, -1)
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d !== '');
  if (!dims.every((d) => /^\d+L?$/.test(d))) return { invalid: 'npy shape is not a tuple of integers' };
  const shape = dims.map((d) => Number(d.replace(/L$/, '')));
  const structured = descr.startsWith('[');
  const hasObject = structured ? /['"][|<>=]?O\d*['"]/.test(descr) : /^[|<>=]?O\d*$/.test(descr);
  let dataBytes: number | null = null;
  if (!structured && !hasObject) {
    const itemSize = simpleItemSize(descr);
    if (itemSize !== null) dataBytes = shape.reduce((a, b) => a * b, 1) * itemSize;
  }
  return {
    descr,
    shape,
    fortranOrder: fortran === 'True',
    hasObject,
    dataOffset: headerStart + headerLength,
    dataBytes,
  };
}

/**
 * The source text of one value of the header's dict literal: a quoted string (without quotes), a bracketed list or
 * parenthesised tuple (with its brackets, nesting counted), or a bare word. Scans once; never evaluates.
 */
function dictValue(text: string, key: string): string | null {
  let at = -1;
  for (const quote of ["'", '"']) {
    const found = text.indexOf(`${quote}${key}${quote}`);
    if (found >= 0 && (at < 0 || found < at)) at = found;
  }
  if (at < 0) return null;
  let i = at + key.length + 2;
  while (text[i] === ' ') i++;
  if (text[i] !== ':') return null;
  i++;
  while (text[i] === ' ') i++;
  const first = text[i];
  if (first === "'" || first === '"') {
    const end = text.indexOf(first, i + 1);
    return end < 0 ? null : text.slice(i + 1, end);
  }
  if (first === '[' || first === '(') {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const ch = text[j];
      if (ch === '[' || ch === '(') depth++;
      else if (ch === ']' || ch === ')') depth--;
      if (depth === 0) return text.slice(i, j + 1);
    }
    return null;
  }
  let end = i;
  while (end < text.length && /[\w.]/.test(text[end]!)) end++;
  return end > i ? text.slice(i, end) : null;
}

function simpleItemSize(descr: string): number | null {
  const match = /^[|<>=]?([a-zA-Z?])(\d*)/.exec(descr);
  if (match === null) return null;
  const digits = match[2] === '' ? null : Number(match[2]);
  if (digits === null) return match[1] === '?' ? 1 : null;
  return match[1] === 'U' ? digits * 4 : digits;
}
