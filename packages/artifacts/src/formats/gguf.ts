// GGUF v1-v3 (docs/artifacts.md "GGUF"): header, metadata key/values and tensor infos are walked with a bounded
// cursor; every count and length from the file is checked against the bytes left before anything is allocated, so a
// count of 2^63 ends at once as `invalid`. The chat templates (`tokenizer.chat_template`, `tokenizer.chat_template.*`)
// go to the template analyser; tensor data is never read.
import format from '../../data/gguf-format.json';
import type { RandomAccess } from '../random-access';
import type { ArtifactFinding, FormatAnalysis } from '../types';
import { ByteCursor, excerpt, toSafeNumber, TruncatedError, utf8Lenient } from './byte-cursor';
import { analyseChatTemplate } from './jinja-template';
import { codeLikeContent } from './metadata-code';

const VALUE_TYPE_SIZES: Record<string, number> = format.value_type_sizes;
const TENSOR_TYPES: Record<string, { name: string; block: number; bytes: number }> = format.tensor_types;
const TYPE_STRING = 8;
const TYPE_ARRAY = 9;
const TYPE_UINT32 = 4;
/** The reference reader limits tensor names to GGML_MAX_NAME - 1 bytes. */
const MAX_TENSOR_NAME = 63;
/** Caps on what we keep in memory; real models have tens of keys and at most tens of thousands of tensors. */
const MAX_KV = 1 << 16;
const MAX_TENSORS = 1 << 17;
/** All keys together (kept for the duplicate check). */
const MAX_TOTAL_KEY_BYTES = 16 << 20;
/** Findings per file: enough to show every kind of problem without growing with the number of keys. */
const MAX_FINDINGS = 200;
const MAX_KEY_BYTES = 1 << 16;
/** Chat templates larger than this are not analysed (a real template is a few KB). */
const MAX_TEMPLATE_BYTES = 1 << 20;
/** Keys whose short string values are facts. */
const FACT_KEYS = new Set(['general.architecture', 'general.name', 'general.type', 'general.file_type']);

class Invalid extends Error {}
class Unscannable extends Error {}

interface Layout {
  littleEndian: boolean;
  /** v1 stores counts and lengths as 32-bit values, v2 and v3 as 64-bit. */
  wide: boolean;
}

export async function analyseGguf(file: RandomAccess): Promise<FormatAnalysis> {
  const facts: Record<string, unknown> = {};
  const findings: ArtifactFinding[] = [];
  try {
    await walk(new ByteCursor(file), facts, findings);
    return { format: 'gguf', findings, facts };
  } catch (error) {
    if (error instanceof TruncatedError) {
      return { format: 'gguf', findings, facts, invalid: `truncated: a structure runs past byte ${error.offset}` };
    }
    if (error instanceof Invalid) return { format: 'gguf', findings, facts, invalid: error.message };
    if (error instanceof Unscannable) return { format: 'gguf', findings, facts, unscannable: error.message };
    throw error;
  }
}

async function walk(cursor: ByteCursor, facts: Record<string, unknown>, findings: ArtifactFinding[]): Promise<void> {
  const magic = await cursor.bytes(4);
  if (String.fromCharCode(...magic) !== 'GGUF') throw new Invalid('no GGUF magic');
  const versionBytes = await cursor.bytes(4);
  const view = new DataView(versionBytes.buffer, versionBytes.byteOffset, 4);
  let littleEndian = true;
  let version = view.getUint32(0, true);
  if (version < 1 || version > 3) {
    version = view.getUint32(0, false);
    littleEndian = false;
    if (version < 1 || version > 3) throw new Invalid('unsupported GGUF version');
  }
  const layout: Layout = { littleEndian, wide: version >= 2 };
  facts.version = version;
  facts.byte_order = littleEndian ? 'little' : 'big';

  const tensorCount = await count(cursor, layout);
  const kvCount = await count(cursor, layout);
  facts.tensor_count = tensorCount;
  facts.kv_count = kvCount;
  // The smallest key/value is a length, a type and one byte; the smallest tensor info a length, n_dims, type, offset.
  const lengthBytes = layout.wide ? 8 : 4;
  if (kvCount * (lengthBytes + 5) > cursor.remaining) throw new Invalid('more key/values than the file can hold');
  if (tensorCount * (lengthBytes + 16) > cursor.remaining) throw new Invalid('more tensors than the file can hold');
  if (kvCount > MAX_KV) throw new Unscannable(`${kvCount} key/values exceed the ${MAX_KV} cap`);
  if (tensorCount > MAX_TENSORS) throw new Unscannable(`${tensorCount} tensors exceed the ${MAX_TENSORS} cap`);

  const keys = new Set<string>();
  let keyBytesTotal = 0;
  const templates: string[] = [];
  let alignment = format.default_alignment;
  for (let i = 0; i < kvCount; i++) {
    const keyBytes = await stringLength(cursor, layout);
    if (keyBytes > MAX_KEY_BYTES) throw new Unscannable(`a key of ${keyBytes} bytes exceeds the cap`);
    keyBytesTotal += keyBytes;
    if (keyBytesTotal > MAX_TOTAL_KEY_BYTES) throw new Unscannable(`keys exceed ${MAX_TOTAL_KEY_BYTES} bytes in all`);
    const key = utf8Lenient.decode(await cursor.bytes(keyBytes));
    if (keys.has(key)) throw new Invalid(`duplicate key ${JSON.stringify(key.slice(0, 100))}`);
    keys.add(key);
    const type = await cursor.u32(layout.littleEndian);
    const isTemplate = key === 'tokenizer.chat_template' || key.startsWith('tokenizer.chat_template.');
    if (type === TYPE_STRING) {
      const length = await stringLength(cursor, layout);
      const offset = cursor.position;
      if (length > MAX_TEMPLATE_BYTES) {
        if (isTemplate) {
          throw new Unscannable(`${key} of ${length} bytes exceeds the ${MAX_TEMPLATE_BYTES}-byte template cap`);
        }
        cursor.skip(length);
        continue;
      }
      const text = utf8Lenient.decode(await cursor.bytes(length));
      if (isTemplate) templates.push(key);
      if (FACT_KEYS.has(key)) facts[key.slice('general.'.length)] = text.slice(0, 200);
      // The rendered templates are always judged; other keys only until the cap (a flood of them hides nothing).
      if (isTemplate || findings.length < MAX_FINDINGS)
        findings.push(...judgeString(key, text, { isTemplate, offset }));
    } else if (key === 'general.alignment') {
      if (type !== TYPE_UINT32) throw new Invalid('general.alignment is not a uint32');
      alignment = await cursor.u32(layout.littleEndian);
      if (alignment === 0 || (alignment & (alignment - 1)) !== 0) throw new Invalid('alignment is not a power of 2');
    } else {
      await skipValue(cursor, layout, { type, depth: 0 });
    }
  }
  facts.chat_templates = templates;
  facts.alignment = alignment;

  const spans: { name: string; offset: bigint; bytes: bigint }[] = [];
  const names = new Set<string>();
  const typeNames = new Set<string>();
  for (let i = 0; i < tensorCount; i++) {
    const nameBytes = await stringLength(cursor, layout);
    if (nameBytes > MAX_TENSOR_NAME) throw new Invalid(`tensor ${i} has a name longer than ${MAX_TENSOR_NAME} bytes`);
    const name = utf8Lenient.decode(await cursor.bytes(nameBytes));
    if (names.has(name)) throw new Invalid(`duplicate tensor ${JSON.stringify(name)}`);
    names.add(name);
    const nDims = await cursor.u32(layout.littleEndian);
    if (nDims > format.max_dims) throw new Invalid(`tensor ${JSON.stringify(name)} has ${nDims} dimensions`);
    const dims: bigint[] = [];
    for (let d = 0; d < nDims; d++) {
      const dim = layout.wide ? await cursor.u64(layout.littleEndian) : BigInt(await cursor.u32(layout.littleEndian));
      // The reference reader stores dimensions as int64: the top bit set is a negative size.
      if (dim >= 1n << 63n) throw new Invalid(`tensor ${JSON.stringify(name)} has a negative dimension`);
      dims.push(dim);
    }
    const typeId = await cursor.u32(layout.littleEndian);
    const type = TENSOR_TYPES[String(typeId)];
    if (!type) throw new Invalid(`tensor ${JSON.stringify(name)} has unknown ggml type ${typeId}`);
    typeNames.add(type.name);
    const offset = await cursor.u64(layout.littleEndian);
    const elements = dims.reduce((n, d) => n * d, 1n);
    const first = dims[0] ?? 1n;
    if (first % BigInt(type.block) !== 0n) {
      throw new Invalid(`tensor ${JSON.stringify(name)}'s first dimension is not a multiple of its block size`);
    }
    if (offset % BigInt(alignment) !== 0n) throw new Invalid(`tensor ${JSON.stringify(name)} is not aligned`);
    spans.push({ name, offset, bytes: (elements / BigInt(type.block)) * BigInt(type.bytes) });
  }
  facts.tensor_types = [...typeNames].sort();

  const dataStart = BigInt(Math.ceil(cursor.position / alignment) * alignment);
  const dataBytes = BigInt(cursor.end) - dataStart;
  if (spans.length > 0 && dataBytes < 0n) throw new Invalid('tensor data starts past the end of the file');
  // The reference reader lays tensors out in info order, each padded to the alignment, and rejects any other offset:
  // no overlap (two names for the same bytes) and no gap (bytes no tensor accounts for).
  const align = BigInt(alignment);
  let expected = 0n;
  for (const span of spans) {
    if (span.offset !== expected) {
      const what = span.offset < expected ? 'overlaps the previous tensor' : 'leaves a gap before it';
      throw new Invalid(`tensor ${JSON.stringify(span.name)} ${what} (offset ${span.offset}, expected ${expected})`);
    }
    const end = span.offset + span.bytes;
    if (end > dataBytes) throw new Invalid(`tensor ${JSON.stringify(span.name)} runs past the end of the file`);
    expected = ((end + align - 1n) / align) * align;
  }
  facts.data_bytes = spans.length > 0 ? Number(dataBytes) : 0;
  // Loaders read nothing past the last tensor (padded to the alignment), or past the tensor infos of a file without
  // tensors: bytes there are a second file riding along (a polyglot zip, a payload for another tool).
  const used = spans.length > 0 ? dataStart + expected : BigInt(cursor.position);
  const trailing = BigInt(cursor.end) - used;
  if (trailing > BigInt(alignment)) {
    // Padding may come first: look for a zip local header within the first alignment's worth of bytes.
    const head = Buffer.from(await cursor.bytesAt(Number(used), alignment + 4));
    const zip = head.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04])) >= 0;
    findings.push({
      id: 'gguf.trailing_data',
      severity: 'medium',
      verdict: 'suspicious',
      message: `${trailing} bytes follow the model${zip ? ' (a zip archive)' : ''}; no GGUF loader reads them`,
      evidence: { offset: Number(used) },
    });
  }
}

/** Any string value: templates are analysed (rendered only for the chat_template keys), code-like text reported. */
function judgeString(key: string, text: string, where: { isTemplate: boolean; offset: number }): ArtifactFinding[] {
  const findings: ArtifactFinding[] = [];
  if (where.isTemplate || text.includes('{{') || text.includes('{%')) {
    for (const finding of analyseChatTemplate(text, { key, offset: where.offset })) {
      // Only the tokenizer.chat_template keys are rendered by loaders: elsewhere an escape is a planted payload that
      // needs another tool to render it.
      findings.push(
        where.isTemplate || finding.verdict !== 'malicious' ? finding : { ...finding, verdict: 'suspicious' },
      );
    }
  }
  const code = codeLikeContent(text);
  if (code.length > 0 && !where.isTemplate) {
    findings.push({
      id: 'gguf.code_in_metadata',
      severity: 'medium',
      verdict: 'suspicious',
      message: `metadata ${JSON.stringify(key.slice(0, 100))} holds ${code.join(', ')}; GGUF loaders never run it`,
      evidence: { member: key, offset: where.offset, excerpt: excerpt(text) },
    });
  }
  return findings;
}

async function count(cursor: ByteCursor, layout: Layout): Promise<number> {
  const value = layout.wide ? await cursor.u64(layout.littleEndian) : BigInt(await cursor.u32(layout.littleEndian));
  const n = toSafeNumber(value);
  if (n === undefined || n > cursor.remaining) throw new Invalid(`a count of ${value} exceeds the file`);
  return n;
}

async function stringLength(cursor: ByteCursor, layout: Layout): Promise<number> {
  const length = await count(cursor, layout);
  if (length > cursor.remaining) throw new Invalid(`a string of ${length} bytes runs past the end of the file`);
  return length;
}

/** Skips one value; arrays are checked against the bytes left before their elements are walked. */
async function skipValue(
  cursor: ByteCursor,
  layout: Layout,
  { type, depth }: { type: number; depth: number },
): Promise<void> {
  const fixed = VALUE_TYPE_SIZES[String(type)];
  if (fixed !== undefined) {
    cursor.skip(fixed);
    return;
  }
  if (type === TYPE_STRING) {
    cursor.skip(await stringLength(cursor, layout));
    return;
  }
  if (type !== TYPE_ARRAY) throw new Invalid(`unknown value type ${type}`);
  if (depth >= 2) throw new Unscannable('arrays nested deeper than 2 levels');
  const elementType = await cursor.u32(layout.littleEndian);
  const length = await count(cursor, layout);
  const elementFixed = VALUE_TYPE_SIZES[String(elementType)];
  if (elementFixed !== undefined) {
    if (length * elementFixed > cursor.remaining) throw new Invalid('an array runs past the end of the file');
    cursor.skip(length * elementFixed);
    return;
  }
  // Strings and nested arrays are at least a length (and a type) each.
  const lengthBytes = layout.wide ? 8 : 4;
  const minimum = elementType === TYPE_STRING ? lengthBytes : 4 + lengthBytes;
  if (length * minimum > cursor.remaining) throw new Invalid('an array claims more elements than the file holds');
  if (elementType !== TYPE_STRING) {
    for (let i = 0; i < length; i++) await skipValue(cursor, layout, { type: elementType, depth: depth + 1 });
    return;
  }
  // Vocabularies are arrays of 10^5 strings: lengths are read from the window without a promise per element.
  for (let i = 0; i < length; i++) {
    if (!cursor.buffered(lengthBytes)) await cursor.need(lengthBytes);
    const stringBytes = layout.wide ? cursor.u64NumberNow(layout.littleEndian) : cursor.u32Now(layout.littleEndian);
    if (stringBytes > cursor.remaining) throw new Invalid('a string runs past the end of the file');
    cursor.skip(stringBytes);
  }
}
