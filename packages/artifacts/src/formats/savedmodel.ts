// TensorFlow SavedModel `saved_model.pb` (docs/artifacts.md "TensorFlow SavedModel"): a protobuf walk over
// meta_graphs → graph_def → nodes and the function library, judging operation names against data/savedmodel-ops.json.
// Constant tensors inside node attributes are skipped by offset.
import ops from '../../data/savedmodel-ops.json';
import type { RandomAccess } from '../random-access';
import type { ArtifactFinding, FormatAnalysis } from '../types';
import {
  fieldsOf,
  headMatches,
  parsesExactly,
  readString,
  WalkBudget,
  walkFailure,
  WIRE_LEN,
  WIRE_VARINT,
  type WireField,
} from './protobuf-wire';

const MALICIOUS_OPS: Record<string, string> = ops.malicious;
const SUSPICIOUS_OPS: Record<string, string> = ops.suspicious;
const CHECKPOINT_OPS = new Set(ops.checkpoint);
const ASSET_OPS = new Set(ops.facts_only);
const SAVED_MODEL_FIELDS = new Map<number, number>([
  [1, WIRE_VARINT],
  [2, WIRE_LEN],
]);
/** MetaGraphDef fields 1-7 are all messages (tensorflow/core/protobuf/meta_graph.proto). */
const META_GRAPH_FIELDS = new Map<number, number>([1, 2, 3, 4, 5, 6, 7].map((f) => [f, WIRE_LEN]));
const MAX_FACT_ITEMS = 200;
const MAX_DISTINCT_OPS = 10_000;
// The fields each walk reads; the rest (signatures, inputs, devices, constants) are skipped without being yielded.
const META_GRAPH_WANTED = new Set([2]);
const GRAPH_DEF_WANTED = new Set([1, 2]);
const FUNCTION_DEF_WANTED = new Set([3]);
const NODE_DEF_WANTED = new Set([1, 2, 5]);

/** SavedModel: schema version (1) and meta_graphs (2) whose first bytes are MetaGraphDef fields. */
export function looksLikeSavedModel(head: Uint8Array): boolean {
  if (head[0] !== 0x08 && head[0] !== 0x12) return false;
  // A meta graph that ends inside the head must parse as MetaGraphDef fields; a longer one is taken on its tag.
  const { ok, fields } = headMatches(
    head,
    SAVED_MODEL_FIELDS,
    (field, payload) => field !== 2 || parsesExactly(payload, META_GRAPH_FIELDS),
  );
  return ok && fields.includes(2);
}

interface SavedModelWalk {
  file: RandomAccess;
  budget: WalkBudget;
  findings: ArtifactFinding[];
  opCounts: Map<string, number>;
  reported: Set<string>;
  nodes: number;
  functions: number;
}

export async function analyseSavedModel(file: RandomAccess): Promise<FormatAnalysis> {
  const facts: Record<string, unknown> = {};
  const walk: SavedModelWalk = {
    file,
    budget: new WalkBudget(),
    findings: [],
    opCounts: new Map(),
    reported: new Set(),
    nodes: 0,
    functions: 0,
  };
  const done = (extra: Partial<FormatAnalysis> = {}): FormatAnalysis => ({
    format: 'tf_savedmodel',
    findings: walk.findings,
    facts,
    ...extra,
  });
  try {
    let metaGraphs = 0;
    for await (const field of fieldsOf(file, { start: 0, end: file.size }, walk.budget)) {
      if (field.field === 1 && field.wire === WIRE_VARINT) facts.schema_version = Number(field.varint);
      else if (field.field === 2 && field.wire === WIRE_LEN) {
        metaGraphs++;
        await walkMetaGraph(walk, field);
      } else {
        return done({ invalid: `unexpected SavedModel field ${field.field}` });
      }
    }
    if (metaGraphs === 0) return done({ invalid: 'no meta graph' });
    facts.meta_graphs = metaGraphs;
  } catch (error) {
    return done(walkFailure(error));
  }
  facts.node_count = walk.nodes;
  facts.function_count = walk.functions;
  facts.ops = [...walk.opCounts.keys()].sort().slice(0, MAX_FACT_ITEMS);
  facts.checkpoint_ops = [...walk.opCounts.keys()].filter((op) => CHECKPOINT_OPS.has(op)).sort();
  facts.asset_ops = [...walk.opCounts.keys()].filter((op) => ASSET_OPS.has(op)).sort();
  return done();
}

/** MetaGraphDef: graph_def (2) holds the nodes and the function library. */
async function walkMetaGraph(walk: SavedModelWalk, range: WireField): Promise<void> {
  for await (const field of fieldsOf(walk.file, { ...range, wanted: META_GRAPH_WANTED }, walk.budget)) {
    if (field.field === 2 && field.wire === WIRE_LEN) await walkGraphDef(walk, field);
  }
}

/** GraphDef: node (1), library (2: FunctionDefLibrary, function (1) → FunctionDef node_def (3)). */
async function walkGraphDef(walk: SavedModelWalk, range: WireField): Promise<void> {
  for await (const field of fieldsOf(walk.file, { ...range, wanted: GRAPH_DEF_WANTED }, walk.budget)) {
    if (field.wire !== WIRE_LEN) continue;
    if (field.field === 1) await walkNodeDef(walk, field);
    else if (field.field === 2) {
      for await (const entry of fieldsOf(walk.file, field, walk.budget)) {
        if (entry.field !== 1 || entry.wire !== WIRE_LEN) continue;
        walk.functions++;
        for await (const part of fieldsOf(walk.file, { ...entry, wanted: FUNCTION_DEF_WANTED }, walk.budget)) {
          if (part.field === 3 && part.wire === WIRE_LEN) await walkNodeDef(walk, part);
        }
      }
    }
  }
}

/** NodeDef: name (1), op (2), attr (5: map entries key 1 → AttrValue 2, whose string is field 2). */
async function walkNodeDef(walk: SavedModelWalk, range: WireField): Promise<void> {
  walk.nodes++;
  let name = '';
  let op = '';
  let outputStream = '';
  for await (const field of fieldsOf(walk.file, { ...range, wanted: NODE_DEF_WANTED }, walk.budget)) {
    if (field.wire !== WIRE_LEN) continue;
    if (field.field === 1) name = await readString(walk.file, field, 200);
    else if (field.field === 2) op = await readString(walk.file, field, 200);
    else if (field.field === 5) outputStream ||= await stringAttr(walk, field, 'output_stream');
  }
  // Bounded memory whatever the node count: distinct ops are counted up to a cap (findings are one per op).
  if (walk.opCounts.has(op) || walk.opCounts.size < MAX_DISTINCT_OPS)
    walk.opCounts.set(op, (walk.opCounts.get(op) ?? 0) + 1);
  // tf.print writes to stderr; PrintV2 with a file:// output stream appends to any file the process can write.
  const printsToFile = op === 'PrintV2' && outputStream.startsWith('file://');
  const malicious = MALICIOUS_OPS[op] ?? (printsToFile ? ops.print_to_file : undefined);
  const suspicious = SUSPICIOUS_OPS[op];
  if ((malicious === undefined && suspicious === undefined) || walk.reported.has(op)) return;
  walk.reported.add(op);
  const detail = printsToFile ? ` to ${outputStream.slice(0, 100)}` : '';
  walk.findings.push({
    id: malicious ? 'savedmodel.file_or_network_op' : 'savedmodel.risky_op',
    severity: malicious ? 'critical' : 'high',
    verdict: malicious ? 'malicious' : 'suspicious',
    message: `operation ${op} (node ${JSON.stringify(name.slice(0, 100))}) ${malicious ?? suspicious}${detail}`,
    evidence: { offset: range.start, excerpt: `${name.slice(0, 100)}: ${op}${detail}` },
  });
}

/** The string value of one NodeDef attr map entry when its key is `key`, else ''. */
async function stringAttr(walk: SavedModelWalk, entry: WireField, key: string): Promise<string> {
  let entryKey = '';
  let value: WireField | undefined;
  for await (const field of fieldsOf(walk.file, entry, walk.budget)) {
    if (field.wire !== WIRE_LEN) continue;
    if (field.field === 1) entryKey = await readString(walk.file, field, 200);
    else if (field.field === 2) value = field;
  }
  if (entryKey !== key || !value) return '';
  for await (const field of fieldsOf(walk.file, value, walk.budget)) {
    if (field.field === 2 && field.wire === WIRE_LEN) return readString(walk.file, field, 4096);
  }
  return '';
}
