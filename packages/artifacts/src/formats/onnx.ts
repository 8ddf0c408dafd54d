// ONNX ModelProto (docs/artifacts.md "ONNX"): a protobuf walk over the graph, its sub-graphs (If/Loop/Scan
// attributes), training graphs and model-local functions. Operators outside the standard and runtime domains need a
// custom-op library (native code) at load: suspicious. External-data locations that are absolute or climb out of the
// model's directory read arbitrary files at load: malicious. Initializer bytes are skipped by offset.
import domains from '../../data/onnx-domains.json';
import type { RandomAccess } from '../random-access';
import type { ArtifactFinding, FormatAnalysis } from '../types';
import { excerpt, TruncatedError } from './byte-cursor';
import {
  fieldsOf,
  headMatches,
  MalformedProtobuf,
  ProtobufCapExceeded,
  readString,
  WalkBudget,
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

/** ir_version first (writers emit fields in number order), then ModelProto fields with printable name strings. */
export function looksLikeOnnx(head: Uint8Array): boolean {
  if (head[0] !== 0x08 || head.length < 4) return false;
  const printable = (field: number, payload: Uint8Array): boolean =>
    field < 2 || field > 4 || payload.every((b) => b >= 0x20 || b === 0x09 || b === 0x0a || b === 0x0d);
  const { ok, fields } = headMatches(head, MODEL_FIELDS, printable);
  return ok && fields.length >= 2;
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
      else if (field.field === 20 && field.wire === WIRE_LEN) await walkTrainingInfo(walk, field);
      else if (field.field === 25 && field.wire === WIRE_LEN) await walkFunction(walk, field);
    }
    if (facts.ir_version === undefined || graphs === 0)
      return done({ invalid: 'not an ONNX model: no ir_version or graph' });
    facts.opsets = opsets.slice(0, MAX_FACT_ITEMS);
  } catch (error) {
    if (error instanceof TruncatedError) return done({ invalid: `truncated at byte ${error.offset}` });
    if (error instanceof MalformedProtobuf) return done({ invalid: `malformed protobuf: ${error.message}` });
    if (error instanceof ProtobufCapExceeded) return done({ unscannable: error.message });
    throw error;
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
  for await (const field of fieldsOf(walk.file, range, walk.budget)) {
    if (field.wire !== WIRE_LEN) continue;
    if (field.field === 1) await walkNode(walk, field, depth);
    else if (field.field === 5) await walkTensor(walk, field, depth);
    else if (field.field === 15) await walkSparseTensor(walk, field, depth);
  }
}

/** NodeProto: op_type (4), domain (7), attributes (5) which may hold tensors and sub-graphs. */
async function walkNode(walk: OnnxWalk, range: WireField, depth: number): Promise<void> {
  walk.nodes++;
  let opType = '';
  let domain = '';
  for await (const field of fieldsOf(walk.file, range, walk.budget)) {
    if (field.wire !== WIRE_LEN) continue;
    if (field.field === 4) opType = await readString(walk.file, field, 200);
    else if (field.field === 7) domain = await readString(walk.file, field, 200);
    else if (field.field === 5) await walkAttribute(walk, field, depth + 1);
  }
  walk.opTypes.add(domain && domain !== 'ai.onnx' ? `${domain}::${opType}` : opType);
  if (!KNOWN_DOMAINS.has(domain)) walk.domainUses.push({ domain, opType, offset: range.start });
}

/** AttributeProto: t (5), g (6), tensors (10), graphs (11), sparse_tensor (22), sparse_tensors (23). */
async function walkAttribute(walk: OnnxWalk, range: WireField, depth: number): Promise<void> {
  walk.budget.enter(depth);
  for await (const field of fieldsOf(walk.file, range, walk.budget)) {
    if (field.wire !== WIRE_LEN) continue;
    if (field.field === 5 || field.field === 10) await walkTensor(walk, field, depth + 1);
    else if (field.field === 6 || field.field === 11) await walkGraph(walk, field, depth + 1);
    else if (field.field === 22 || field.field === 23) await walkSparseTensor(walk, field, depth + 1);
  }
}

async function walkSparseTensor(walk: OnnxWalk, range: WireField, depth: number): Promise<void> {
  for await (const field of fieldsOf(walk.file, range, walk.budget)) {
    if (field.wire === WIRE_LEN && (field.field === 1 || field.field === 2)) await walkTensor(walk, field, depth + 1);
  }
}

/** TensorProto: only external_data (13) matters; raw and typed data are skipped. */
async function walkTensor(walk: OnnxWalk, range: WireField, depth: number): Promise<void> {
  walk.budget.enter(depth);
  let name = '';
  for await (const field of fieldsOf(walk.file, range, walk.budget)) {
    if (field.wire !== WIRE_LEN) continue;
    if (field.field === 8) name = await readString(walk.file, field, 200);
    else if (field.field === 13) {
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
}

function checkLocation(walk: OnnxWalk, location: string, where: { tensor: string; offset: number }): void {
  walk.externalLocations.push(location);
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
  for await (const field of fieldsOf(walk.file, range, walk.budget)) {
    if (field.wire !== WIRE_LEN) continue;
    if (field.field === 1) name = await readString(walk.file, field, 200);
    else if (field.field === 10) domain = await readString(walk.file, field, 200);
    else if (field.field === 7) await walkNode(walk, field, 2);
  }
  walk.localFunctions.add(`${domain}\u0000${name}`);
}
