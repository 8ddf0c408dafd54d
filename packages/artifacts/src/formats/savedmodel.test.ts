import { fromBytes } from '../random-access';
import { looksLikeOnnx } from './onnx';
import { analyseSavedModel, looksLikeSavedModel } from './savedmodel';
import { datasetBytes, labelledFiles, pb } from '../../test/support';
import { verdictOf } from '../index';

// tensorflow/core/protobuf/saved_model.proto and meta_graph.proto, framework/graph.proto, node_def.proto,
// function.proto: SavedModel meta_graphs 2 → MetaGraphDef graph_def 2 → GraphDef node 1 (NodeDef name 1, op 2,
// attr 5) and library 2 → FunctionDefLibrary function 1 → FunctionDef node_def 3.
const nodeDef = (name: string, op: string, extra: number[] = []): number[] =>
  pb.message(1, [...pb.string(1, name), ...pb.string(2, op), ...extra]);
const savedModel = (graph: number[], version = true): Uint8Array =>
  new Uint8Array([...(version ? pb.int(1, 1) : []), ...pb.message(2, pb.message(2, graph))]);
const library = (...functions: number[][]): number[] => pb.message(2, functions.map((fn) => pb.message(1, fn)).flat());

async function analyse(bytes: Uint8Array) {
  const analysis = await analyseSavedModel(fromBytes(bytes));
  return { analysis, verdict: verdictOf(analysis) };
}

describe('SavedModel analyser on the labelled data set', () => {
  const files = labelledFiles('tf_savedmodel');

  it('has the labelled SavedModel files to judge', () => {
    expect(files.length).toBeGreaterThanOrEqual(1);
  });

  it.each(files.map((f) => [f.file, f.verdict] as const))('%s is %s', async (file, expected) => {
    const bytes = datasetBytes(file);
    expect(looksLikeSavedModel(bytes)).toBe(true);
    expect(looksLikeOnnx(bytes)).toBe(false);
    const { verdict } = await analyse(bytes);
    expect(verdict).toBe(expected);
  });

  it('reports the PyFunc node of the ModelAudit sample with its name', async () => {
    const { analysis } = await analyse(datasetBytes('files/modelaudit/malicious_pyfunc/saved_model.pb'));
    expect(analysis.findings).toEqual([
      expect.objectContaining({ id: 'savedmodel.risky_op', verdict: 'suspicious', evidence: expect.anything() }),
    ]);
    expect(analysis.findings[0]!.evidence.excerpt).toBe('bad: PyFunc');
    expect(analysis.facts.ops).toEqual(['Const', 'PyFunc']);
  });
});

describe('SavedModel analyser on hand-written graphs', () => {
  it('accepts a graph of ordinary and checkpoint ops as benign', async () => {
    const bytes = savedModel([
      ...nodeDef('x', 'Placeholder'),
      ...nodeDef('w', 'Const', pb.message(5, [...pb.string(1, 'value'), ...pb.message(2, new Array(5000).fill(1))])),
      ...nodeDef('y', 'MatMul'),
      ...nodeDef('save/SaveV2', 'SaveV2'),
      ...nodeDef('save/RestoreV2', 'RestoreV2'),
    ]);
    expect(looksLikeSavedModel(bytes)).toBe(true);
    // The meta graph runs past a short head: only its tag is seen, and that is no ONNX graph.
    expect(looksLikeOnnx(bytes.subarray(0, 16))).toBe(false);
    const { verdict, analysis } = await analyse(bytes);
    expect(verdict).toBe('benign');
    expect(analysis.facts.checkpoint_ops).toEqual(['RestoreV2', 'SaveV2']);
  });

  it('accepts the Const-only graph ModelAudit uses as its safe sample', async () => {
    // tests/assets/generators/generate_security_assets.py SAFE_SAVEDMODEL_B64 in ModelAudit.
    const bytes = new Uint8Array(Buffer.from('EhISEAoOCgVDb25zdBIFQ29uc3Q=', 'base64'));
    expect(looksLikeSavedModel(bytes)).toBe(true);
    expect((await analyse(bytes)).verdict).toBe('benign');
  });

  it('does not take an ONNX model whose producer name looks like a field for a SavedModel', () => {
    // ir_version 8, producer_name "2.0.1" ('2' is the tag of a length-delimited field 6), then a graph.
    const onnx = new Uint8Array([
      ...pb.int(1, 8),
      ...pb.string(2, '2.0.1'),
      ...pb.message(7, pb.message(1, pb.string(4, 'Relu'))),
    ]);
    expect(looksLikeSavedModel(onnx)).toBe(false);
    expect(looksLikeOnnx(onnx)).toBe(true);
  });

  it('calls a graph that writes files malicious', async () => {
    const { verdict, analysis } = await analyse(
      savedModel([...nodeDef('path', 'Const'), ...nodeDef('w', 'WriteFile')]),
    );
    expect(verdict).toBe('malicious');
    expect(analysis.findings[0]).toMatchObject({ id: 'savedmodel.file_or_network_op', severity: 'critical' });
  });

  it.each(['DistributedSave', 'RpcCall', 'DataServiceDatasetV4'])(
    'calls a graph with %s (file write or network) malicious',
    async (op) => {
      expect((await analyse(savedModel(nodeDef('n', op)))).verdict).toBe('malicious');
    },
  );

  it('calls PrintV2 to a file:// stream malicious and keeps tf.print to stderr benign', async () => {
    const stream = (value: string) =>
      pb.message(5, [...pb.string(1, 'output_stream'), ...pb.message(2, pb.string(2, value))]);
    expect((await analyse(savedModel(nodeDef('p', 'PrintV2', stream('file:///home/u/.bashrc'))))).verdict).toBe(
      'malicious',
    );
    expect((await analyse(savedModel(nodeDef('p', 'PrintV2', stream('stderr'))))).verdict).toBe('benign');
  });

  it.each([
    'ReadFile',
    'MatchingFiles',
    'EagerPyFunc',
    'PyFuncStateless',
    'ImmutableConst',
    'CSVDatasetV2',
    'DebugIdentityV3',
  ])('calls a graph with %s suspicious', async (op) => {
    expect((await analyse(savedModel(nodeDef('n', op)))).verdict).toBe('suspicious');
  });

  it('finds a risky op inside the function library', async () => {
    const fn = [
      ...pb.message(1, pb.string(1, '__inference_call_1')),
      ...pb.message(3, [...pb.string(1, 'r'), ...pb.string(2, 'ReadFile')]),
    ];
    const { verdict } = await analyse(savedModel([...nodeDef('c', 'StatefulPartitionedCall'), ...library(fn)]));
    expect(verdict).toBe('suspicious');
  });

  it.each([
    ['a truncated file', savedModel(nodeDef('n', 'Const')).subarray(0, 9)],
    ['no meta graph', new Uint8Array(pb.int(1, 1))],
    ['an unexpected top-level field', new Uint8Array([...pb.int(1, 1), ...pb.string(9, 'x')])],
    ['a length past the end', new Uint8Array([0x12, 0xff, 0xff, 0x03, 0x0a])],
  ])('calls %s invalid', async (_what, bytes) => {
    expect((await analyse(bytes)).verdict).toBe('invalid');
  });
});
