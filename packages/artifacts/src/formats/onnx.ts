// ONNX ModelProto (docs/artifacts.md "ONNX"): a protobuf walk over the graph, its sub-graphs (If/Loop/Scan
// attributes), training graphs and model-local functions. Operators outside the standard and runtime domains need a
// custom-op library (native code) at load: suspicious. External-data locations that are absolute or climb out of the
// model's directory read arbitrary files at load: malicious. Initializer bytes are skipped by offset.
import domains from '../../data/onnx-domains.json';
import type { RandomAccess } from '../random-access';
import type { ArtifactFinding, FormatAnalysis } from '../types';
import { excerpt } from './byte-cursor';
import { codeLikeContent } from './metadata-code';
import {
  fieldsOf,
  headMatches,
  readString,
  WalkBudget,
  walkFailure,
  WIRE_LEN,
  WIRE_VARINT,
  type WireField,
} from './protobuf-wire';

const KNOWN_DOMAINS = new Set([...domains.standard, ...domains.runtime]);
/** ModelProto fields and their wire types (onnx/onnx.proto). */
const MODEL_FIELDS = new Map<number, number>([
  [1, WIRE_VARINT],
  [2, WIRE_LEN],
  [3, WIRE_LEN],
  [4, WIRE_LEN],
  [5, WIRE_VARINT],
  [6, WIRE_LEN],
  [7, WIRE_LEN],
  [8, WIRE_LEN],
  [14, WIRE_LEN],
  [20, WIRE_LEN],
  [25, WIRE_LEN],
]);
const MAX_FACT_ITEMS = 200;
/** Distinct op types, custom-domain uses and findings kept per file (a hostile graph may have millions of nodes). */
const MAX_KEPT = 1000;
/** TensorProto.DataType → bits per element (onnx/onnx.proto); STRING (8) and unknown types are not size-checked. */
const DATA_TYPE_BITS: Record<number, number> = {
  1: 32,
  2: 8,
  3: 8,
  4: 16,
  5: 16,
  6: 32,
  7: 64,
  9: 8,
  10: 16,
  11: 64,
  12: 32,
  13: 64,
  14: 64,
  15: 128,
  16: 16,
  17: 8,
  18: 8,
  19: 8,
  20: 8,
  21: 4,
  22: 4,
  23: 4,
  24: 8,
};
/** Typed data fields of TensorProto (float_data, int32_data, string_data, int64_data, double_data, uint64_data). */
const TYPED_DATA_FIELDS = new Set([4, 5, 6, 7, 10, 11]);
/**
 * Typed data may be millions of unpacked elements: only its presence matters, so each is yielded once. int64_data is
 * not among them: it holds sparse indices, packed or one varint field per value, and every one is checked.
 */
const PRESENCE_ONLY_FIELDS = new Set([4, 5, 6, 10, 11]);
// The fields each walk reads (onnx/onnx.proto); the rest are skipped without being yielded.
const GRAPH_FIELDS = new Set([1, 5, 10, 15]);
const NODE_FIELDS = new Set([4, 5, 6, 7]);
const ATTRIBUTE_FIELDS = new Set([4, 5, 6, 9, 10, 11, 22, 23]);
const SPARSE_FIELDS = new Set([1, 2, 3]);
const TENSOR_FIELDS = new Set([1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14]);
const FUNCTION_FIELDS = new Set([1, 7, 10]);
/** Index tensors of sparse initializers are checked when they are at most this large. */
const MAX_INDEX_BYTES = 1 << 20;

/** A tensor whose declared shape disagrees with its data, or a sparse index outside its shape: the ONNX checker
 * rejects both, and runtimes that skip the checker read out of bounds. */
class InconsistentTensor extends Error {}

/** ir_version first (writers emit fields in number order), then ModelProto fields up to the graph, names printable. */
export function looksLikeOnnx(head: Uint8Array): boolean {
  if (head[0] !== 0x08 || head.length < 4) return false;
  const printable = (field: number, payload: Uint8Array): boolean =>
    field < 2 || field > 4 || payload.every((b) => b >= 0x20 || b === 0x09 || b === 0x0a || b === 0x0d);
  const { ok, fields } = headMatches(head, MODEL_FIELDS, printable);
  // A model reaches its doc string, graph or opsets within the head (a doc string may be long enough to hide the
  // graph); a SavedModel (schema version, then a meta graph longer than the head) has only fields 1 and 2.
  return ok && fields.some((field) => field >= 6);
}

interface OnnxWalk {
  file: RandomAccess;
  budget: WalkBudget;
  findings: ArtifactFinding[];
  opTypes: Set<string>;
  customDomains: Set<string>;
  localFunctions: Set<string>;
  /** Nodes in domains that are not known; judged once the model-local functions are known. */
  domainUses: { domain: string; opType: string; offset: number }[];
  externalLocations: string[];
  nodes: number;
}

export async function analyseOnnx(file: RandomAccess): Promise<FormatAnalysis> {
  const facts: Record<string, unknown> = {};
  const walk: OnnxWalk = {
    file,
    budget: new WalkBudget(),
    findings: [],
    opTypes: new Set(),
    customDomains: new Set(),
    localFunctions: new Set(),
    domainUses: [],
    externalLocations: [],
    nodes: 0,
  };
  const done = (extra: Partial<FormatAnalysis> = {}): FormatAnalysis => ({
    format: 'onnx',
    findings: walk.findings,
    facts,
    ...extra,
  });
  try {
    let graphs = 0;
    const opsets: { domain: string; version: number }[] = [];
    for await (const field of fieldsOf(file, { start: 0, end: file.size }, walk.budget)) {
      if (field.field === 1 && field.wire === WIRE_VARINT) facts.ir_version = Number(field.varint);
      else if (field.field === 2 && field.wire === WIRE_LEN) facts.producer = await readString(file, field, 200);
      else if (field.field === 7 && field.wire === WIRE_LEN) {
        graphs++;
        await walkGraph(walk, field, 1);
      } else if (field.field === 8 && field.wire === WIRE_LEN) opsets.push(await readOpset(walk, field));
      else if (field.field === 6 && field.wire === WIRE_LEN) await checkText(walk, 'doc_string', field);
      else if (field.field === 14 && field.wire === WIRE_LEN) await checkMetadataProp(walk, field);
      else if (field.field === 20 && field.wire === WIRE_LEN) await walkTrainingInfo(walk, field);
      else if (field.field === 25 && field.wire === WIRE_LEN) await walkFunction(walk, field);
    }
    if (facts.ir_version === undefined || graphs === 0)
      return done({ invalid: 'not an ONNX model: no ir_version or graph' });
    facts.opsets = opsets.slice(0, MAX_FACT_ITEMS);
  } catch (error) {
    if (error instanceof InconsistentTensor) return done({ invalid: error.message });
    return done(walkFailure(error));
  }
  for (const use of walk.domainUses) {
    if (walk.localFunctions.has(`${use.domain}\u0000${use.opType}`)) continue;
    walk.customDomains.add(use.domain);
    if (walk.findings.some((f) => f.id === 'onnx.custom_operator' && f.evidence.excerpt?.startsWith(`${use.domain}::`)))
      continue;
    walk.findings.push({
      id: 'onnx.custom_operator',
      severity: 'medium',
      verdict: 'suspicious',
      message: `operator ${use.opType} of domain ${JSON.stringify(use.domain)} needs a custom operator library at load`,
      evidence: { offset: use.offset, excerpt: excerpt(`${use.domain}::${use.opType}`) },
    });
  }
  facts.node_count = walk.nodes;
  facts.op_types = [...walk.opTypes].sort().slice(0, MAX_FACT_ITEMS);
  facts.custom_domains = [...walk.customDomains].sort();
  facts.external_data_locations = walk.externalLocations.slice(0, MAX_FACT_ITEMS);
  return done();
}

async function readOpset(walk: OnnxWalk, range: WireField): Promise<{ domain: string; version: number }> {
  const opset = { domain: '', version: 0 };
  for await (const field of fieldsOf(walk.file, range, walk.budget)) {
    if (field.field === 1 && field.wire === WIRE_LEN) opset.domain = await readString(walk.file, field, 200);
    else if (field.field === 2 && field.wire === WIRE_VARINT) opset.version = Number(field.varint);
  }
  return opset;
}

/** GraphProto: nodes (1), initializers (5), sparse initializers (15). */
async function walkGraph(walk: OnnxWalk, range: WireField, depth: number): Promise<void> {
  walk.budget.enter(depth);
  for await (const field of fieldsOf(walk.file, { ...range, wanted: GRAPH_FIELDS }, walk.budget)) {
    if (field.wire !== WIRE_LEN) continue;
    if (field.field === 1) await walkNode(walk, field, depth);
    else if (field.field === 10) await checkText(walk, 'graph doc_string', field);
    else if (field.field === 5) await walkTensor(walk, field, depth);
    else if (field.field === 15) await walkSparseTensor(walk, field, depth);
  }
}

/** NodeProto: op_type (4), domain (7), attributes (5) which may hold tensors and sub-graphs. */
async function walkNode(walk: OnnxWalk, range: WireField, depth: number): Promise<void> {
  walk.nodes++;
  let opType = '';
  let domain = '';
  for await (const field of fieldsOf(walk.file, { ...range, wanted: NODE_FIELDS }, walk.budget)) {
    if (field.wire !== WIRE_LEN) continue;
    if (field.field === 4) opType = await readString(walk.file, field, 200);
    else if (field.field === 7) domain = await readString(walk.file, field, 200);
    else if (field.field === 5) await walkAttribute(walk, field, depth + 1);
    else if (field.field === 6) await checkText(walk, `node ${opType} doc_string`, field);
  }
  // Bounded memory whatever the node count: distinct op types and custom-domain uses are kept up to a cap.
  if (walk.opTypes.size < MAX_KEPT) walk.opTypes.add(domain && domain !== 'ai.onnx' ? `${domain}::${opType}` : opType);
  if (!KNOWN_DOMAINS.has(domain) && walk.domainUses.length < MAX_KEPT) {
    walk.domainUses.push({ domain, opType, offset: range.start });
  }
}

/** AttributeProto: t (5), g (6), tensors (10), graphs (11), sparse_tensor (22), sparse_tensors (23). */
async function walkAttribute(walk: OnnxWalk, range: WireField, depth: number): Promise<void> {
  walk.budget.enter(depth);
  for await (const field of fieldsOf(walk.file, { ...range, wanted: ATTRIBUTE_FIELDS }, walk.budget)) {
    if (field.wire !== WIRE_LEN) continue;
    if (field.field === 5 || field.field === 10) await walkTensor(walk, field, depth + 1);
    else if (field.field === 4 || field.field === 9) await checkText(walk, 'node attribute', field);
    else if (field.field === 6 || field.field === 11) await walkGraph(walk, field, depth + 1);
    else if (field.field === 22 || field.field === 23) await walkSparseTensor(walk, field, depth + 1);
  }
}

/** SparseTensorProto: values (1), indices (2), dense dims (3); every index must fall inside the dense shape. */
async function walkSparseTensor(walk: OnnxWalk, range: WireField, depth: number): Promise<void> {
  const dims: bigint[] = [];
  let indices: TensorShape | undefined;
  for await (const field of fieldsOf(walk.file, { ...range, wanted: SPARSE_FIELDS }, walk.budget)) {
    if (field.field === 3) for (const dim of await int64s(walk, field)) dims.push(dim);
    else if (field.wire === WIRE_LEN && field.field === 1) await walkTensor(walk, field, depth + 1);
    else if (field.wire === WIRE_LEN && field.field === 2) indices = await walkTensor(walk, field, depth + 1);
  }
  if (!indices || indices.values === undefined) return;
  const size = dims.reduce((n, d) => n * d, 1n);
  const rank = indices.dims.length === 2 ? Number(indices.dims[1]) : 1;
  indices.values.forEach((index, i) => {
    const bound = rank === 1 ? size : (dims[i % rank] ?? 0n);
    if (index < 0n || index >= bound) {
      throw new InconsistentTensor(`sparse tensor index ${index} is outside its shape [${dims.join(', ')}]`);
    }
  });
}

interface TensorShape {
  dims: bigint[];
  /** Integer contents of a small INT64 tensor (sparse indices), when read. */
  values?: bigint[];
}

/**
 * TensorProto: external_data (13) locations are judged; the declared shape and type must match raw_data's length
 * (or some typed data must be present). Data is read only for small INT64 index tensors.
 */
async function walkTensor(walk: OnnxWalk, range: WireField, depth: number): Promise<TensorShape> {
  walk.budget.enter(depth);
  let name = '';
  const dims: bigint[] = [];
  let dataType = 0;
  let raw: WireField | undefined;
  /** int64_data values in order; undefined once there are more than the check reads (then nothing is checked). */
  let int64Data: bigint[] | undefined = [];
  let typed = false;
  let external = false;
  // int64_data joins the yielded-once fields when there are more indices than the check reads.
  const once = new Set(PRESENCE_ONLY_FIELDS);
  for await (const field of fieldsOf(walk.file, { ...range, wanted: TENSOR_FIELDS, once }, walk.budget)) {
    // Item by item: a packed field holds up to a million values, too many to spread as arguments.
    if (field.field === 1) for (const dim of await int64s(walk, field)) dims.push(dim);
    else if (field.field === 2 && field.wire === WIRE_VARINT) dataType = Number(field.varint);
    else if (field.field === 14 && field.wire === WIRE_VARINT) external ||= field.varint === 1n;
    else if (field.field === 9 && field.wire === WIRE_LEN) raw = field;
    else if (TYPED_DATA_FIELDS.has(field.field)) {
      typed = true;
      if (field.field !== 7 || int64Data === undefined) continue;
      if (field.wire === WIRE_VARINT && int64Data.length < MAX_INDEX_BYTES) {
        int64Data.push(BigInt.asIntN(64, field.varint));
        continue;
      }
      const values = field.end - field.start <= MAX_INDEX_BYTES ? await int64s(walk, field) : undefined;
      if (values === undefined || int64Data.length + values.length > MAX_INDEX_BYTES) {
        int64Data = undefined;
        once.add(7);
      } else for (const value of values) int64Data.push(value);
    } else if (field.wire !== WIRE_LEN) continue;
    else if (field.field === 8) name = await readString(walk.file, field, 200);
    else if (field.field === 13) {
      external = true;
      let key = '';
      let value = '';
      for await (const entry of fieldsOf(walk.file, field, walk.budget)) {
        if (entry.wire !== WIRE_LEN) continue;
        if (entry.field === 1) key = await readString(walk.file, entry, 200);
        else if (entry.field === 2) value = await readString(walk.file, entry, 4096);
      }
      if (key === 'location') checkLocation(walk, value, { tensor: name, offset: field.start });
    }
  }
  const bits = DATA_TYPE_BITS[dataType];
  const elements = dims.reduce((n, d) => n * d, 1n);
  if (!external && bits !== undefined) {
    const expected = (elements * BigInt(bits) + 7n) / 8n;
    const label = `tensor ${JSON.stringify(name.slice(0, 100))}`;
    if (raw && BigInt(raw.end - raw.start) !== expected) {
      throw new InconsistentTensor(`${label} declares ${expected} bytes but holds ${raw.end - raw.start}`);
    }
    if (!raw && !typed && elements > 0n)
      throw new InconsistentTensor(`${label} declares ${elements} elements but no data`);
  }
  const shape: TensorShape = { dims };
  if (dataType === 7 && raw && raw.end - raw.start <= MAX_INDEX_BYTES) {
    const bytes = await walk.file.read(raw.start, raw.end - raw.start);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    shape.values = Array.from({ length: Math.floor(bytes.length / 8) }, (_, i) => view.getBigInt64(i * 8, true));
  } else if (dataType === 7 && int64Data !== undefined) {
    shape.values = int64Data;
  }
  return shape;
}

/** A repeated int64 field, packed (one LEN field of varints) or not (one varint), as signed values. */
async function int64s(walk: OnnxWalk, field: WireField): Promise<bigint[]> {
  if (field.wire === WIRE_VARINT) return [BigInt.asIntN(64, field.varint)];
  if (field.wire !== WIRE_LEN || field.end - field.start > MAX_INDEX_BYTES) return [];
  const bytes = await walk.file.read(field.start, field.end - field.start);
  const values: bigint[] = [];
  let value = 0n;
  let shift = 0n;
  for (const byte of bytes) {
    value |= BigInt(byte & 0x7f) << shift;
    shift += 7n;
    if ((byte & 0x80) === 0) {
      values.push(BigInt.asIntN(64, value));
      value = 0n;
      shift = 0n;
    }
  }
  return values;
}

/** Free text (doc strings, string attributes, metadata): code in it is reported, never run by ONNX runtimes. */
async function checkText(walk: OnnxWalk, where: string, field: WireField): Promise<void> {
  if (field.wire !== WIRE_LEN) return;
  const text = await readString(walk.file, field, 64 * 1024);
  reportCode(walk, where, { text, offset: field.start });
}

function reportCode(walk: OnnxWalk, where: string, { text, offset }: { text: string; offset: number }): void {
  const code = codeLikeContent(text);
  if (code.length === 0 || walk.findings.filter((f) => f.id === 'onnx.code_in_metadata').length >= 20) return;
  walk.findings.push({
    id: 'onnx.code_in_metadata',
    severity: 'medium',
    verdict: 'suspicious',
    message: `${where} holds ${code.join(', ')}; ONNX runtimes never run it, a tool that evaluates it would`,
    evidence: { offset, excerpt: excerpt(text) },
  });
}

/** ModelProto.metadata_props entry: key (1), value (2). */
async function checkMetadataProp(walk: OnnxWalk, range: WireField): Promise<void> {
  let key = '';
  for await (const field of fieldsOf(walk.file, range, walk.budget)) {
    if (field.wire !== WIRE_LEN) continue;
    if (field.field === 1) key = await readString(walk.file, field, 200);
    else if (field.field === 2) {
      reportCode(walk, `metadata ${JSON.stringify(key)}`, {
        text: await readString(walk.file, field, 64 * 1024),
        offset: field.start,
      });
    }
  }
}

function checkLocation(walk: OnnxWalk, location: string, where: { tensor: string; offset: number }): void {
  if (walk.externalLocations.length < MAX_FACT_ITEMS) walk.externalLocations.push(location);
  if (walk.findings.length >= MAX_KEPT) return;
  const segments = location.split(/[\\/]/);
  const absolute =
    location.startsWith('/') || location.startsWith('\\') || /^[A-Za-z]:/.test(location) || location.includes('\u0000');
  const climbs = segments.includes('..');
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(location) || location.startsWith('~');
  if (absolute || climbs) {
    walk.findings.push({
      id: 'onnx.external_data_escape',
      severity: 'critical',
      verdict: 'malicious',
      message: `tensor ${JSON.stringify(where.tensor.slice(0, 100))} loads external data from ${
        absolute ? 'an absolute path' : 'outside the model directory'
      }, which reads an arbitrary file at load`,
      evidence: { offset: where.offset, excerpt: excerpt(location) },
    });
  } else if (scheme) {
    walk.findings.push({
      id: 'onnx.external_data_unusual_location',
      severity: 'medium',
      verdict: 'suspicious',
      message: `tensor ${JSON.stringify(where.tensor.slice(0, 100))} names external data by a URL or home path`,
      evidence: { offset: where.offset, excerpt: excerpt(location) },
    });
  }
}

/** TrainingInfoProto: initialization (1) and algorithm (2) graphs. */
async function walkTrainingInfo(walk: OnnxWalk, range: WireField): Promise<void> {
  for await (const field of fieldsOf(walk.file, range, walk.budget)) {
    if (field.wire === WIRE_LEN && (field.field === 1 || field.field === 2)) await walkGraph(walk, field, 2);
  }
}

/** FunctionProto: name (1), nodes (7), domain (10). A local function makes its domain::name a known operator. */
async function walkFunction(walk: OnnxWalk, range: WireField): Promise<void> {
  let name = '';
  let domain = '';
  for await (const field of fieldsOf(walk.file, { ...range, wanted: FUNCTION_FIELDS }, walk.budget)) {
    if (field.wire !== WIRE_LEN) continue;
    if (field.field === 1) name = await readString(walk.file, field, 200);
    else if (field.field === 10) domain = await readString(walk.file, field, 200);
    else if (field.field === 7) await walkNode(walk, field, 2);
  }
  walk.localFunctions.add(`${domain}\u0000${name}`);
}
