import { fromBytes } from '../random-access';
import { analyseOnnx, looksLikeOnnx } from './onnx';
import { looksLikeSavedModel } from './savedmodel';
import { datasetBytes, labelledFiles, pb } from '../../test/support';
import { verdictOf } from '../index';

// onnx/onnx.proto field numbers: ModelProto ir_version 1, producer_name 2, graph 7, opset_import 8, functions 25;
// GraphProto node 1, initializer 5; NodeProto op_type 4, domain 7, attribute 5; AttributeProto g 6;
// TensorProto name 8, raw_data 9, external_data 13 (key 1, value 2), data_location 14; FunctionProto name 1,
// node 7, domain 10.
const node = (opType: string, domain = '', attributes: number[][] = []): number[] =>
  pb.message(1, [...pb.string(4, opType), ...(domain ? pb.string(7, domain) : []), ...attributes.flat()]);
const externalTensor = (name: string, location: string): number[] =>
  pb.message(5, [
    ...pb.string(8, name),
    ...pb.message(13, [...pb.string(1, 'location'), ...pb.string(2, location)]),
    ...pb.message(13, [...pb.string(1, 'offset'), ...pb.string(2, '0')]),
    ...pb.int(14, 1),
  ]);
function model(graph: number[], extra: number[] = []): Uint8Array {
  return new Uint8Array([
    ...pb.int(1, 8),
    ...pb.string(2, 'handwritten'),
    ...pb.message(7, graph),
    ...pb.message(8, [...pb.string(1, ''), ...pb.int(2, 17)]),
    ...extra,
  ]);
}

async function analyse(bytes: Uint8Array) {
  const analysis = await analyseOnnx(fromBytes(bytes));
  return { analysis, verdict: verdictOf(analysis) };
}

describe('ONNX analyser on the labelled data set', () => {
  const files = labelledFiles('onnx');

  it('has the labelled ONNX files to judge', () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
  });

  it.each(files.map((f) => [f.file, f.verdict] as const))('%s is %s', async (file, expected) => {
    const bytes = datasetBytes(file);
    expect(looksLikeOnnx(bytes.subarray(0, 4096))).toBe(true);
    expect(looksLikeSavedModel(bytes.subarray(0, 4096))).toBe(false);
    const { analysis, verdict } = await analyse(bytes);
    expect(verdict).toBe(expected);
    expect(analysis.facts.node_count).toBeGreaterThan(0);
    expect(analysis.facts.custom_domains).toEqual([]);
  });
});

describe('ONNX analyser on hand-written models', () => {
  it('accepts standard and runtime-domain operators and in-directory external data as benign', async () => {
    const graph = [
      ...node('Conv'),
      ...node('FusedMatMul', 'com.microsoft'),
      ...node('LinearRegressor', 'ai.onnx.ml'),
      ...externalTensor('w', 'weights/model.onnx.data'),
    ];
    const { verdict, analysis } = await analyse(model(graph));
    expect(verdict).toBe('benign');
    expect(analysis.facts).toMatchObject({ ir_version: 8, node_count: 3 });
    expect(analysis.facts.external_data_locations).toEqual(['weights/model.onnx.data']);
  });

  it('recognises a model whose doc string pushes the graph past the detection head', () => {
    const bytes = new Uint8Array([
      ...pb.int(1, 8),
      ...pb.string(6, 'x'.repeat(70_000)),
      ...pb.message(7, node('Relu')),
    ]);
    expect(looksLikeOnnx(bytes.subarray(0, 65_536))).toBe(true);
  });

  it('calls an operator of a custom domain suspicious, with the domain in the evidence', async () => {
    const { verdict, analysis } = await analyse(model([...node('Relu'), ...node('Backdoor', 'com.evil.ops')]));
    expect(verdict).toBe('suspicious');
    expect(analysis.findings[0]).toMatchObject({ id: 'onnx.custom_operator' });
    expect(analysis.findings[0]!.evidence.excerpt).toBe('com.evil.ops::Backdoor');
  });

  it('finds a custom operator hidden in an If branch sub-graph', async () => {
    const thenBranch = pb.message(5, [...pb.string(1, 'then_branch'), ...pb.message(6, node('Exfil', 'x.custom'))]);
    const { verdict } = await analyse(model(node('If', '', [thenBranch])));
    expect(verdict).toBe('suspicious');
  });

  it('accepts an operator defined by a model-local function, and checks the function body', async () => {
    const fn = pb.message(25, [
      ...pb.string(1, 'MyGelu'),
      ...pb.string(10, 'local.fn'),
      ...pb.message(7, pb.string(4, 'Erf')),
    ]);
    const { verdict } = await analyse(model(node('MyGelu', 'local.fn'), fn));
    expect(verdict).toBe('benign');
    const hiding = pb.message(25, [
      ...pb.string(1, 'MyGelu'),
      ...pb.string(10, 'local.fn'),
      ...pb.message(7, [...pb.string(4, 'Payload'), ...pb.string(7, 'com.evil')]),
    ]);
    expect((await analyse(model(node('MyGelu', 'local.fn'), hiding))).verdict).toBe('suspicious');
  });

  it.each([
    ['an absolute path', '/etc/passwd'],
    ['a path that climbs out of the model directory', '../../../home/user/.ssh/id_rsa'],
    ['a climb hidden in the middle', 'weights/../../secrets.bin'],
    ['a Windows drive path', 'C:\\Windows\\win.ini'],
    ['a Windows climb', '..\\..\\secrets.bin'],
  ])('calls external data at %s malicious', async (_what, location) => {
    const { verdict, analysis } = await analyse(model([...node('Relu'), ...externalTensor('w', location)]));
    expect(verdict).toBe('malicious');
    expect(analysis.findings[0]).toMatchObject({ id: 'onnx.external_data_escape', severity: 'critical' });
    expect(analysis.findings[0]!.evidence.excerpt).toBe(location);
  });

  it('reports code in metadata_props, doc strings and string attributes as suspicious', async () => {
    const hook = pb.message(14, [
      ...pb.string(1, 'execution_hook'),
      ...pb.string(2, "eval(\"__import__('os').system('id')\")"),
    ]);
    const { verdict, analysis } = await analyse(model(node('Identity'), hook));
    expect(verdict).toBe('suspicious');
    expect(analysis.findings[0]).toMatchObject({ id: 'onnx.code_in_metadata' });
    const attribute = pb.message(5, [...pb.string(1, 'code'), ...pb.string(4, 'import os; os.system("id")')]);
    expect((await analyse(model(node('Relu', '', [attribute])))).verdict).toBe('suspicious');
  });

  // TensorProto: dims 1, data_type 2 (1 = FLOAT, 7 = INT64), raw_data 9; SparseTensorProto values 1, indices 2, dims 3.
  const tensor = (field: number, dims: number[], dataType: number, raw?: number[]): number[] =>
    pb.message(field, [
      ...dims.flatMap((d) => pb.int(1, d)),
      ...pb.int(2, dataType),
      ...(raw ? pb.message(9, raw) : []),
    ]);

  it('calls a tensor whose shape disagrees with its raw data invalid', async () => {
    const { verdict } = await analyse(model([...node('Add'), ...tensor(5, [2, 2], 1, new Array(8).fill(0))]));
    expect(verdict).toBe('invalid');
  });

  it('reads a tensor whose packed dims hold 200,000 values', async () => {
    // Packed dims (one LEN field of varints) of 1s: a float tensor of one element, 4 bytes of raw data.
    const packedDims = pb.message(1, new Array<number>(200_000).fill(1));
    const bytes = model([
      ...node('Add'),
      ...pb.message(5, [...packedDims, ...pb.int(2, 1), ...pb.message(9, [0, 0, 0, 0])]),
    ]);
    const { verdict } = await analyse(bytes);
    expect(verdict).toBe('benign');
  });

  it('calls a tensor claiming 2^32 elements with no data invalid', async () => {
    const { verdict } = await analyse(model([...node('Add'), ...tensor(5, [2 ** 16, 2 ** 16], 1)]));
    expect(verdict).toBe('invalid');
  });

  it('calls a sparse initializer with indices outside its shape invalid and keeps in-bounds ones benign', async () => {
    const int64 = (values: number[]) => values.flatMap((v) => [...Buffer.from(new BigInt64Array([BigInt(v)]).buffer)]);
    const sparse = (indices: number[]) =>
      pb.message(15, [
        ...tensor(1, [indices.length], 1, new Array(4 * indices.length).fill(0)),
        ...tensor(2, [indices.length], 7, int64(indices)),
        ...pb.int(3, 2),
        ...pb.int(3, 3),
      ]);
    expect((await analyse(model([...node('Identity'), ...sparse([0, 5])]))).verdict).toBe('benign');
    expect((await analyse(model([...node('Identity'), ...sparse([0, 2 ** 31 - 1])]))).verdict).toBe('invalid');
    expect((await analyse(model([...node('Identity'), ...sparse([-1])]))).verdict).toBe('invalid');
  });

  it('checks every sparse index written as unpacked or split int64_data, not only the first', async () => {
    // int64_data (field 7) may be one varint field per value, or several packed fields (onnx/onnx.proto).
    const sparse = (indexFields: number[]) =>
      pb.message(15, [
        ...tensor(1, [2], 1, new Array(8).fill(0)),
        ...pb.message(2, [...pb.int(1, 2), ...pb.int(2, 7), ...indexFields]),
        ...pb.int(3, 2),
        ...pb.int(3, 3),
      ]);
    const unpacked = (indices: number[]) => sparse(indices.flatMap((i) => pb.int(7, i)));
    const split = (indices: number[]) => sparse(indices.flatMap((i) => pb.message(7, pb.varint(i))));
    expect((await analyse(model([...node('Identity'), ...unpacked([0, 5])]))).verdict).toBe('benign');
    expect((await analyse(model([...node('Identity'), ...unpacked([0, 99])]))).verdict).toBe('invalid');
    expect((await analyse(model([...node('Identity'), ...split([0, 99])]))).verdict).toBe('invalid');
  });

  it('skips large raw tensor data by offset', async () => {
    const raw = new Array<number>(3 << 20).fill(7);
    const initializer = pb.message(5, [
      ...pb.string(8, 'big'),
      ...pb.int(1, 3 << 20),
      ...pb.int(2, 2),
      ...pb.message(9, raw),
    ]);
    const { verdict, analysis } = await analyse(model([...node('Relu'), ...initializer]));
    expect(verdict).toBe('benign');
    expect(analysis.facts.node_count).toBe(1);
  });

  it.each([
    ['a truncated model', model(node('Relu')).subarray(0, 20)],
    ['a length past the end', new Uint8Array([...pb.int(1, 8), 0x3a, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3])],
    ['a group wire type', new Uint8Array([...pb.int(1, 8), 0x3b, 0x3c])],
    ['a model without a graph', new Uint8Array([...pb.int(1, 8), ...pb.string(2, 'x')])],
    ['a varint longer than ten bytes', new Uint8Array([0x08, ...new Array<number>(11).fill(0xff), 0x01])],
  ])('calls %s invalid', async (_what, bytes) => {
    expect((await analyse(bytes)).verdict).toBe('invalid');
  });

  it('ends deeply nested sub-graphs at the depth cap as unscannable', async () => {
    let graph = node('Relu');
    for (let i = 0; i < 40; i++) graph = node('If', '', [pb.message(5, pb.message(6, graph))]);
    const { verdict } = await analyse(model(graph));
    expect(verdict).toBe('unscannable');
  });
});
