import { expectWithinBudget } from '@risk/time-budget';
import { PickleWalker, type PickleReport, type PickleWalkOptions } from './walker';
import { op, osSystemPickle, pickle, torchStatePickle } from '../../test/pickle-bytes';
import { u64le } from '../../test/support';

function walk(bytes: Uint8Array, options: PickleWalkOptions = {}): PickleReport {
  const walker = new PickleWalker(options);
  walker.write(bytes);
  return walker.end();
}

const ids = (report: PickleReport): string[] => report.findings.map((f) => f.id);
const dangerous = (report: PickleReport): string[] =>
  report.findings.filter((f) => f.verdict === 'malicious').map((f) => f.evidence.callable ?? f.id);

describe('pickle walk: the callables a load would import and call', () => {
  it('resolves STACK_GLOBAL names stored in and fetched from the memo', () => {
    // Decoy torch names are memoised first; os and system come back through BINGET, as in the imaginaryCTF sample.
    const bytes = pickle(
      op.proto(4),
      op.short('torch'),
      op.binput(0),
      op.short('os'),
      op.binput(1),
      op.short('system'),
      op.binput(2),
      op.pop,
      op.pop,
      op.pop,
      op.binget(1),
      op.binget(2),
      op.stackGlobal,
      op.short('id'),
      op.tuple1,
      op.reduce,
      op.stop,
    );
    const report = walk(bytes);
    expect(dangerous(report)).toEqual(['os.system']);
    expect(report.findings[0]!.evidence.offset).toBe(bytes.indexOf(0x93));
    expect(report.invalid).toBeUndefined();
  });

  it('resolves names pushed by protocol 0 STRING and UNICODE opcodes and copied with DUP', () => {
    const report = walk(
      pickle(
        op.string("'builtins'"),
        op.unicode('eval'),
        op.stackGlobal,
        op.string("'1+1'"),
        op.tuple1,
        op.reduce,
        op.stop,
      ),
    );
    expect(dangerous(report)).toEqual(['builtins.eval']);
    const dup = walk(
      pickle(
        op.proto(4),
        op.short('subprocess'),
        op.short('run'),
        op.stackGlobal,
        op.dup,
        op.pop,
        op.emptyTuple,
        op.reduce,
        op.stop,
      ),
    );
    expect(dangerous(dup)).toEqual(['subprocess.run']);
  });

  it('applies Python 2 and platform aliases and dangerous module prefixes', () => {
    expect(dangerous(walk(pickle(op.global('__builtin__', 'eval'), op.stop)))).toEqual(['builtins.eval']);
    expect(dangerous(walk(pickle(op.global('posix', 'system'), op.stop)))).toEqual(['os.system']);
    expect(dangerous(walk(pickle(op.global('nt', 'spawnv'), op.stop)))).toEqual(['os.spawnv']);
    expect(dangerous(walk(pickle(op.global('_operator', 'attrgetter'), op.stop)))).toEqual(['operator.attrgetter']);
    expect(dangerous(walk(pickle(op.global('commands', 'getoutput'), op.stop)))).toEqual(['subprocess.getoutput']);
    // A dangerous module makes every attribute and submodule dangerous, however deep the qualname.
    expect(dangerous(walk(pickle(op.global('os.path', 'join'), op.stop)))).toEqual(['os.path.join']);
    expect(dangerous(walk(pickle(op.proto(4), op.short('bdb'), op.short('Bdb.run'), op.stackGlobal, op.stop)))).toEqual(
      ['bdb.Bdb.run'],
    );
  });

  it('reaches INST and OBJ calls without REDUCE', () => {
    const inst = walk(pickle(op.mark, op.string("'print(1)'"), op.inst('__builtin__', 'exec'), op.stop));
    expect(dangerous(inst)).toEqual(['builtins.exec']);
    const obj = walk(pickle(op.proto(2), op.mark, op.global('subprocess', 'Popen'), op.short('id'), 0x6f, op.stop));
    expect(dangerous(obj)).toEqual(['subprocess.Popen']);
  });

  it('calls a nested pickle.loads dangerous and reports a stored inner pickle as suspicious', () => {
    const inner = osSystemPickle();
    const loads = walk(
      pickle(op.proto(3), op.global('_pickle', 'loads'), op.binbytes(inner), op.tuple1, op.reduce, op.stop),
    );
    expect(dangerous(loads)).toEqual(['pickle.loads']);
    // Stored, not loaded: a careful reviewer must see it, but this load runs nothing.
    const stored = walk(pickle(op.proto(3), op.emptyDict, op.short('blob'), op.binbytes(inner), op.setitem, op.stop));
    expect(ids(stored)).toEqual(['pickle.embedded_pickle']);
    expect(stored.findings[0]!.verdict).toBe('suspicious');
    const b64 = walk(pickle(op.proto(4), op.short(Buffer.from(inner).toString('base64')), op.stop));
    expect(ids(b64)).toEqual(['pickle.embedded_pickle']);
    // An inner pickle of plain data is data.
    const plainInner = pickle(op.proto(4), op.emptyDict, op.stop);
    expect(walk(pickle(op.proto(3), op.binbytes(plainInner), op.stop)).findings).toEqual([]);
  });

  it('reports extension registry codes as unknown callables', () => {
    const report = walk(pickle(op.proto(2), op.ext1(42), op.emptyTuple, op.reduce, op.stop));
    expect(report.findings.map((f) => [f.id, f.verdict])).toContainEqual(['pickle.extension_code', 'suspicious']);
  });

  it('never calls an unknown callable safe', () => {
    const report = walk(pickle(op.proto(2), op.global('__main__', 'Model'), op.emptyTuple, op.newobj, op.stop));
    expect(report.findings.map((f) => [f.id, f.verdict])).toEqual([['pickle.unknown_callable', 'suspicious']]);
  });

  it('finds only known-safe callables in a torch state dict with persistent storages', () => {
    const report = walk(torchStatePickle());
    expect(report.invalid).toBeUndefined();
    expect(report.findings).toEqual([]);
    expect(report.callables.map((c) => c.name).sort()).toEqual([
      'collections.OrderedDict',
      'torch.FloatStorage',
      'torch._utils._rebuild_tensor_v2',
    ]);
  });

  it('flags BUILD on an imported object and STACK_GLOBAL of computed names (allowlist overwrite)', () => {
    const report = walk(
      pickle(
        op.proto(4),
        op.short('torch'),
        op.short('_utils'),
        op.stackGlobal,
        op.emptyDict,
        op.short('_rebuild_tensor'),
        op.short('eval'),
        op.setitem,
        op.build,
        op.short('_rebuild_tensor'),
        op.stackGlobal,
        op.stop,
      ),
    );
    expect(ids(report)).toEqual(expect.arrayContaining(['pickle.global_state_overwrite', 'pickle.dynamic_global']));
  });

  it('resolves cloudpickle builtin types and flags calling a rebuilt function', () => {
    const report = walk(
      pickle(
        op.proto(4),
        op.global('cloudpickle.cloudpickle', '_make_function'),
        op.global('cloudpickle.cloudpickle', '_builtin_type'),
        op.short('CodeType'),
        op.tuple1,
        op.reduce,
        op.emptyTuple,
        op.reduce,
        op.tuple1,
        op.reduce,
        op.emptyTuple,
        op.reduce,
        op.stop,
      ),
    );
    expect(dangerous(report)).toEqual(
      expect.arrayContaining(['types.CodeType', 'cloudpickle.cloudpickle._make_function']),
    );
  });

  it('walks every pickle of a sequence: a benign first pickle hides nothing', () => {
    const report = walk(pickle(...torchStatePickle(), ...osSystemPickle()));
    expect(report.pickles).toBe(2);
    expect(dangerous(report)).toEqual(['os.system']);
  });

  it('reports truncated and malformed streams as invalid, keeping dangerous callables seen before the cut', () => {
    const full = osSystemPickle();
    const truncated = walk(full.subarray(0, full.length - 3));
    expect(truncated.invalid).toMatch(/truncated/);
    expect(dangerous(truncated)).toEqual(['os.system']);
    expect(walk(torchStatePickle().subarray(0, 40)).invalid).toMatch(/truncated/);
    expect(walk(pickle(op.proto(2), op.binget(7), op.stop)).invalid).toMatch(/memo key 7/);
    expect(walk(pickle(op.proto(2), op.pop, op.stop)).invalid).toMatch(/underflow/);
    expect(walk(pickle(op.proto(2), 0xff)).invalid).toMatch(/unknown opcode/);
    expect(walk(pickle(op.proto(9), op.none, op.stop)).invalid).toMatch(/protocol 9/);
    expect(walk(new Uint8Array(0)).invalid).toBe('empty stream');
    // Padding after a complete pickle is not junk; anything else after it is.
    expect(walk(pickle(...torchStatePickle(), 0x0a, 0x00, 0x20)).invalid).toBeUndefined();
    expect(walk(pickle(...torchStatePickle(), 0x0a, 0xff)).invalid).toMatch(/unknown opcode 0xff/);
  });

  it('gives the same result whatever the chunking of the stream', () => {
    const bytes = pickle(...torchStatePickle(), ...osSystemPickle());
    const whole = walk(bytes);
    const walker = new PickleWalker();
    for (const byte of bytes) walker.write(new Uint8Array([byte]));
    const byByte = walker.end();
    expect(byByte.findings).toEqual(whole.findings);
    expect(byByte.callables).toEqual(whole.callables);
    expect(byByte.pickles).toBe(2);
  });

  it('skips a payload larger than the inspection cap without holding it', () => {
    const payload = 3 << 20;
    const head = pickle(op.proto(4), 0x8e, u64le(payload));
    const tail = pickle(op.pop, ...osSystemPickle().subarray(2));
    const walker = new PickleWalker();
    walker.write(head);
    walker.write(new Uint8Array(1 << 20));
    expect(walker.skipWithin(payload)).toBe(payload - (1 << 20));
    walker.write(tail);
    const report = walker.end();
    expect(report.invalid).toBeUndefined();
    expect(dangerous(report)).toEqual(['os.system']);
    expect(report.findings[0]!.evidence.offset).toBe(head.length + payload + tail.indexOf(0x93));
  });
});

describe('pickle walk: hostile streams end with a verdict within budget', () => {
  it('walks 10^7 opcodes linearly', () => {
    // PROTO, then 5·10^6 NONE/POP pairs, then NONE STOP.
    const bytes = new Uint8Array(2 + 10_000_000 + 2);
    bytes.set([0x80, 4]);
    for (let i = 2; i < bytes.length - 2; i += 2) {
      bytes[i] = 0x4e;
      bytes[i + 1] = 0x30;
    }
    bytes.set([0x4e, 0x2e], bytes.length - 2);
    const { result } = expectWithinBudget(6000, () => walk(bytes));
    expect(result.opcodes).toBe(10_000_003);
    expect(result.invalid).toBeUndefined();
    expect(result.findings).toEqual([]);
  });

  it('ends at the opcode budget as unscannable', () => {
    const bytes = pickle(op.proto(4), ...Array.from({ length: 2000 }, () => [0x4e, 0x30]).flat(), op.none, op.stop);
    const report = walk(bytes, { limits: { maxOpcodes: 1000 } });
    expect(report.unscannable).toMatch(/more than 1000 pickle opcodes/);
  });

  it('ends memo abuse at the memo cap as unscannable', () => {
    // One value memoised 2·10^6 times under fresh indexes.
    const bytes = new Uint8Array(3 + 2_000_000 + 1);
    bytes.set([0x80, 4, 0x4e]);
    bytes.fill(0x94, 3, bytes.length - 1);
    bytes[bytes.length - 1] = 0x2e;
    const { result } = expectWithinBudget(5000, () => walk(bytes));
    expect(result.unscannable).toMatch(/memo larger than/);
  });

  it('ends deep MARK nesting at the mark cap and self-referencing containers without recursion', () => {
    const marks = new Uint8Array(2 + 1_000_000);
    marks.set([0x80, 4]);
    marks.fill(0x28, 2);
    expect(expectWithinBudget(4000, () => walk(marks)).result.unscannable).toMatch(/nested MARKs/);
    // A list appended to itself 10^6 times, then a tuple nesting it: cycles are never followed.
    const cycle = [0x80, 4, 0x5d, 0x94];
    for (let i = 0; i < 1_000_000; i++) cycle.push(0x68, 0, 0x61);
    cycle.push(0x85, 0x2e);
    const report = expectWithinBudget(5000, () => walk(new Uint8Array(cycle))).result;
    expect(report.invalid).toBeUndefined();
    expect(report.pickles).toBe(1);
  });

  it('caps protocol 0 lines', () => {
    const long = new Uint8Array(3 << 20).fill(0x31);
    long[0] = 0x49;
    expect(walk(long).unscannable).toMatch(/text line longer/);
  });
});
