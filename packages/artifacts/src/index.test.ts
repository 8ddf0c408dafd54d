import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync, deflateSync } from 'node:zlib';
import { analyseBytes, analyseFile, ArtifactTooLargeError, createArtifactScanner, ANALYSER_VERSION } from './index';
import { analyseSource, rootContext } from './analyse';
import type { RandomAccess } from './random-access';
import { zipBytes } from '../test/zip-bytes';
import { op, opcodeFloodPickle, osSystemPickle, pickle, torchStatePickle } from '../test/pickle-bytes';
import { u64le } from '../test/support';

const callablesOf = (result: { findings: { verdict: string; evidence: { callable?: string } }[] }): string[] =>
  result.findings.filter((f) => f.verdict === 'malicious').map((f) => f.evidence.callable ?? '');

function npy(descr: string, shape: string, body: Uint8Array): Uint8Array {
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const head = Buffer.concat([
    Buffer.from([0x93]),
    Buffer.from('NUMPY'),
    Buffer.from([1, 0, header.length & 0xff, header.length >> 8]),
    Buffer.from(header, 'latin1'),
  ]);
  return new Uint8Array(Buffer.concat([head, Buffer.from(body)]));
}

describe('analyseBytes: formats by content, verdicts, hashes', () => {
  it('returns the result model with the SHA-256 and size of the bytes', async () => {
    const bytes = torchStatePickle();
    const result = await analyseBytes(bytes);
    expect(result).toMatchObject({
      format: 'pickle',
      verdict: 'benign',
      findings: [],
      analyser_version: ANALYSER_VERSION,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
    });
  });

  it('scans every pickle member of a PyTorch zip, whatever its name', async () => {
    const zip = zipBytes([
      { name: 'archive/data.pkl', data: torchStatePickle() },
      { name: 'archive/data/0', data: new Uint8Array(16) },
      { name: 'archive/extra/notes.txt', data: osSystemPickle(), deflate: true },
      { name: 'archive/version', data: new TextEncoder().encode('3\n') },
    ]);
    const result = await analyseBytes(zip);
    expect(result.format).toBe('pytorch_zip');
    expect(result.verdict).toBe('malicious');
    expect(result.findings.find((f) => f.verdict === 'malicious')!.evidence).toMatchObject({
      callable: 'os.system',
      member: 'archive/extra/notes.txt',
    });
  });

  it('calls a benign PyTorch zip benign', async () => {
    const zip = zipBytes([
      { name: 'archive/data.pkl', data: torchStatePickle(), deflate: true },
      { name: 'archive/data/0', data: new Uint8Array(16) },
      { name: 'archive/byteorder', data: new TextEncoder().encode('little') },
    ]);
    expect((await analyseBytes(zip)).verdict).toBe('benign');
  });

  it('reports central/local name disagreement and a wrong CRC, and still scans the member', async () => {
    const zip = zipBytes([{ name: 'data.pkl', localName: 'datap.kl', data: osSystemPickle(), crc: 0x1234 }]);
    const result = await analyseBytes(zip);
    expect(result.verdict).toBe('malicious');
    expect(result.findings.map((f) => f.id)).toEqual(
      expect.arrayContaining(['pickle.dangerous_callable', 'zip.inconsistent_structure', 'zip.crc_mismatch']),
    );
  });

  it('reports overlapping entries and scans each', async () => {
    const zip = zipBytes([
      { name: 'a.pkl', data: osSystemPickle() },
      { name: 'b.pkl', data: new Uint8Array(0), sharesDataOf: 0 },
    ]);
    const result = await analyseBytes(zip);
    expect(result.verdict).toBe('malicious');
    expect(result.findings.some((f) => f.id === 'zip.inconsistent_structure' && /overlap/.test(f.message))).toBe(true);
    expect(result.findings.filter((f) => f.id === 'pickle.dangerous_callable').map((f) => f.evidence.member)).toEqual([
      'a.pkl',
      'b.pkl',
    ]);
  });

  it('cuts a zip bomb at the compression ratio as unscannable', async () => {
    const zip = zipBytes([{ name: 'bomb.pkl', data: new Uint8Array(64 << 20), deflate: true }]);
    const result = await analyseBytes(zip);
    expect(result.verdict).toBe('unscannable');
    expect(String(result.facts.unscannable)).toMatch(/zip bomb|decompression bomb/);
  });

  it('reports members that extract outside the target directory', async () => {
    const zip = zipBytes([{ name: '../../etc/cron.d/job', data: new TextEncoder().encode('* * * * * root id\n') }]);
    const result = await analyseBytes(zip);
    expect(result.verdict).toBe('suspicious');
    expect(result.findings.map((f) => f.id)).toEqual(['archive.path_traversal']);
  });

  it('bounds the inflation of overlapping entries that all point at one bomb', async () => {
    const zeros = new Uint8Array(64 << 20);
    const zip = zipBytes([
      { name: 'bomb0', data: zeros, deflate: true },
      ...Array.from({ length: 299 }, (_, i) => ({ name: `bomb${i + 1}`, data: zeros, sharesDataOf: 0 })),
    ]);
    const started = process.cpuUsage();
    const result = await analyseBytes(zip);
    const cpu = process.cpuUsage(started);
    // Overlap is a finding (suspicious, which outranks unscannable); the inflation stops at the artifact's cap.
    expect(result.verdict).toBe('suspicious');
    expect(String(result.facts.unscannable)).toMatch(/bomb|passes/);
    // Inflating every entry in full would be 300 × 64 MiB; the caps keep it to a few hundred MiB at most.
    expect(cpu.user + cpu.system).toBeLessThan(30_000_000);
  });

  it('reports encrypted members unscannable, never benign', async () => {
    const zip = zipBytes([{ name: 'test.txt', data: new TextEncoder().encode('secret'), encrypted: true }]);
    expect((await analyseBytes(zip)).verdict).toBe('unscannable');
    // The flag trick: a plaintext pickle flagged encrypted, which PyTorch loads regardless of the flag.
    const flagged = zipBytes([{ name: 'archive/data.pkl', data: osSystemPickle(), encrypted: true }]);
    const result = await analyseBytes(flagged);
    expect(result.verdict).toBe('malicious');
    expect(result.facts.unscannable).toMatch(/encrypted/);
  });

  it('walks nested archives up to the depth cap', async () => {
    let archive = zipBytes([{ name: 'inner.pkl', data: osSystemPickle() }]);
    const found = await analyseBytes(zipBytes([{ name: 'outer.zip', data: archive }]));
    expect(found.verdict).toBe('malicious');
    expect(found.findings[0]!.evidence.member).toBe('outer.zip/inner.pkl');
    for (let i = 0; i < 6; i++) archive = zipBytes([{ name: `level${i}.zip`, data: archive }]);
    const deep = await analyseBytes(archive);
    expect(deep.verdict).toBe('unscannable');
    expect(String(deep.facts.unscannable)).toMatch(/nested deeper/);
  });

  it('scans the pickle of an object-dtype .npy and checks plain arrays for truncation', async () => {
    const objectArray = npy('|O', '(1,)', osSystemPickle());
    expect(callablesOf(await analyseBytes(objectArray))).toEqual(['os.system']);
    const ints = npy('<i4', '(2, 2)', new Uint8Array(16));
    expect(await analyseBytes(ints)).toMatchObject({ format: 'numpy', verdict: 'benign' });
    expect((await analyseBytes(ints.subarray(0, ints.length - 4))).verdict).toBe('invalid');
    const npz = zipBytes([{ name: 'x.npy', data: objectArray, deflate: true }]);
    expect(await analyseBytes(npz)).toMatchObject({ format: 'numpy_npz', verdict: 'malicious' });
  });

  it('walks the five pickles of a legacy PyTorch file and stops before its tensor bytes', async () => {
    const magic = [0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19, 0x2e];
    const small = pickle(op.proto(2), op.binint1(1), op.stop);
    const keys = pickle(op.proto(2), op.emptyList, op.stop);
    const storage = new Uint8Array([4, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
    const benign = pickle(...magic, ...small, ...small, ...torchStatePickle(), ...keys, ...storage);
    expect(await analyseBytes(benign)).toMatchObject({ format: 'pytorch_legacy', verdict: 'benign' });
    const hostile = pickle(...magic, ...small, ...small, ...osSystemPickle(), ...keys, ...storage);
    expect(callablesOf(await analyseBytes(hostile))).toEqual(['os.system']);
  });

  it('walks legacy PyTorch tar members and other tar archives', async () => {
    const tar = (members: [string, Uint8Array][]): Uint8Array => {
      const blocks: Buffer[] = [];
      for (const [name, data] of members) {
        const header = Buffer.alloc(512);
        header.write(name, 0, 'utf8');
        header.write(data.length.toString(8).padStart(11, '0'), 124, 'ascii');
        header.write('0', 156, 'ascii');
        header.write('ustar\u000000', 257, 'ascii');
        blocks.push(header, Buffer.from(data), Buffer.alloc((512 - (data.length % 512)) % 512));
      }
      return new Uint8Array(Buffer.concat([...blocks, Buffer.alloc(1024)]));
    };
    const storages = pickle(op.proto(2), op.binint1(0), op.stop);
    const hostile = await analyseBytes(
      tar([
        ['sys_info', pickle(op.proto(2), op.emptyDict, op.stop)],
        ['pickle', osSystemPickle()],
        ['storages', storages],
      ]),
    );
    expect(hostile).toMatchObject({ format: 'pytorch_legacy', verdict: 'malicious' });
    expect(hostile.findings[0]!.evidence.member).toBe('pickle');
    const benign = await analyseBytes(
      tar([
        ['pickle', torchStatePickle()],
        ['storages', storages],
      ]),
    );
    expect(benign.verdict).toBe('benign');
    // A later pickle of the storages member, after raw storage bytes, is found too.
    const laterStorage = pickle(...storages, 4, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, ...osSystemPickle());
    const hidden = await analyseBytes(
      tar([
        ['pickle', torchStatePickle()],
        ['storages', laterStorage],
      ]),
    );
    expect(hidden.verdict).toBe('malicious');
    expect(hidden.findings[0]!.evidence).toMatchObject({ member: 'storages', callable: 'os.system' });
    const slip = await analyseBytes(tar([['../evil.pkl', torchStatePickle()]]));
    expect(slip.findings.map((f) => f.id)).toEqual(['archive.path_traversal']);
  });

  it('skips the array bytes joblib writes after a NumpyArrayWrapper, aligned or not', async () => {
    const wrapper = (state: number[], data: number[], dtype = 'i8'): Uint8Array =>
      pickle(
        op.proto(2),
        op.global('joblib.numpy_pickle', 'NumpyArrayWrapper'),
        op.emptyTuple,
        op.newobj,
        op.emptyDict,
        op.mark,
        op.short('subclass'),
        op.global('numpy', 'ndarray'),
        op.short('shape'),
        op.binint1(2),
        op.tuple1,
        op.short('order'),
        op.short('C'),
        op.short('dtype'),
        op.global('numpy', 'dtype'),
        op.mark,
        op.short(dtype),
        op.binint1(0),
        op.binint1(1),
        op.tuple,
        op.reduce,
        ...state,
        0x75, // SETITEMS
        op.build,
        ...data,
        op.stop,
      );
    const plain = await analyseBytes(wrapper([], new Array<number>(16).fill(0x2e)));
    expect(plain).toMatchObject({ format: 'joblib', verdict: 'benign' });
    expect(plain.facts.joblib_arrays).toBe(1);
    const aligned = await analyseBytes(
      wrapper(
        [...op.short('numpy_array_alignment_bytes'), ...op.binint1(16)],
        [3, 0xff, 0xff, 0xff, ...new Array<number>(16).fill(0x63)],
      ),
    );
    expect(aligned).toMatchObject({ format: 'joblib', verdict: 'benign' });
    // An object array's elements are a pickle of their own inside the stream: walked, then the outer pickle goes on.
    const objects = await analyseBytes(wrapper([], [...osSystemPickle()], 'O8'));
    expect(objects.verdict).toBe('malicious');
    expect(objects.facts.invalid).toBeUndefined();
    // Array bytes that run short of the shape are a truncated file.
    expect((await analyseBytes(wrapper([], [0, 0, 0]))).verdict).toBe('invalid');
  });

  it('inflates joblib zlib and gzip streams and walks the pickle inside', async () => {
    const zlibbed = new Uint8Array(deflateSync(osSystemPickle()));
    expect(await analyseBytes(zlibbed)).toMatchObject({ format: 'joblib', verdict: 'malicious' });
    const gz = new Uint8Array(gzipSync(torchStatePickle()));
    expect(await analyseBytes(gz)).toMatchObject({ format: 'joblib', verdict: 'benign' });
  });

  it('never gives other bytes a clean verdict', async () => {
    expect((await analyseBytes(new TextEncoder().encode('hello world, not a model'))).verdict).toBe('unsupported');
    expect((await analyseBytes(new Uint8Array(0))).verdict).toBe('unsupported');
    expect((await analyseBytes(new TextEncoder().encode('cmod\n\xf8\n'))).verdict).not.toBe('benign');
    // Prose that opens like protocol 0 opcodes (NONE, INST; MARK, GLOBAL) is not a pickle with unknown imports.
    expect((await analyseBytes(new TextEncoder().encode('Nice model\nfor text\n'))).verdict).toBe('unsupported');
    expect((await analyseBytes(new TextEncoder().encode('(copyright 2024\nall rights\n'))).verdict).not.toMatch(
      /suspicious|malicious/,
    );
    // A truncated protocol 0 pickle with a dangerous import stays malicious.
    expect((await analyseBytes(new TextEncoder().encode('cos\nsystem\n(S"id"\n'))).verdict).toBe('malicious');
  });

  it('finds pickles stored in a 7z archive while calling the archive unscannable', async () => {
    const sevenZip = pickle(
      [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4],
      ...new Array<number>(24).fill(0),
      ...osSystemPickle(),
      0,
      0,
    );
    const result = await analyseBytes(sevenZip);
    expect(result.verdict).toBe('malicious');
    expect(result.facts.unscannable).toMatch(/7z/);
    // Bytes made of nothing but PROTO openings cost a bounded number of carved walks.
    const openings = new Uint8Array(4 << 20);
    openings.set([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]);
    for (let i = 8; i < openings.length; i += 2) openings.set([0x80, 0x02], i);
    const started = process.cpuUsage();
    expect((await analyseBytes(openings)).verdict).toBe('unscannable');
    const cpu = process.cpuUsage(started);
    expect(cpu.user + cpu.system).toBeLessThan(30_000_000);
  });
});

/** Runs the analysis and returns its verdict and the CPU time it took (CPU, not wall time: a busy machine is no excuse). */
async function verdictWithCpu(bytes: Uint8Array): Promise<{ verdict: string; cpuMs: number; facts: ArtifactFacts }> {
  const started = process.cpuUsage();
  const result = await analyseBytes(bytes);
  const used = process.cpuUsage(started);
  return { verdict: result.verdict, cpuMs: (used.user + used.system) / 1000, facts: result.facts };
}
type ArtifactFacts = Awaited<ReturnType<typeof analyseBytes>>['facts'];

// docs/artifacts.md "Containers and caps": every hostile shape ends with a verdict, and within a CPU budget (the
// budgets are a few times what the 2-core development machine measures, far under what a super-linear walk costs).
describe('hostile shapes end with a verdict within their CPU budget through the whole analyser', () => {
  it('a pickle of 10^7 opcodes is benign, and cut in half it is invalid', async () => {
    const flood = opcodeFloodPickle(10_000_000);
    const whole = await verdictWithCpu(flood);
    expect(whole.verdict).toBe('benign');
    expect(whole.cpuMs).toBeLessThan(10_000);
    const cut = await verdictWithCpu(flood.subarray(0, flood.length / 2 + 1));
    expect(cut.verdict).toBe('invalid');
    expect(cut.cpuMs).toBeLessThan(10_000);
  });

  it('a zip bomb is unscannable within its budget', async () => {
    const bomb = await verdictWithCpu(zipBytes([{ name: 'bomb.pkl', data: new Uint8Array(64 << 20), deflate: true }]));
    expect(bomb.verdict).toBe('unscannable');
    expect(bomb.cpuMs).toBeLessThan(5_000);
  });

  it('a PyTorch zip cut anywhere gets a verdict, never benign when its central directory is gone', async () => {
    const zip = zipBytes([
      { name: 'archive/data.pkl', data: osSystemPickle(), deflate: true },
      { name: 'archive/data/0', data: new Uint8Array(1 << 20) },
    ]);
    for (const at of [10, 100, zip.length >> 1, zip.length - 30, zip.length - 1]) {
      const cut = await verdictWithCpu(zip.subarray(0, at));
      expect(cut.verdict).not.toBe('benign');
      expect(cut.cpuMs).toBeLessThan(2_000);
    }
  });
});

describe('hostile mutations never crash the analyser', () => {
  it('gives every flipped, truncated or spliced artifact a verdict', async () => {
    const seeds = [
      zipBytes([
        { name: 'archive/data.pkl', data: torchStatePickle(), deflate: true },
        { name: 'x.npy', data: npy('|O', '(1,)', osSystemPickle()) },
      ]),
      osSystemPickle(),
      torchStatePickle(),
      npy('<f4', '(2,)', new Uint8Array(8)),
      new Uint8Array(gzipSync(torchStatePickle())),
    ];
    let state = 42;
    const random = (): number => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const verdicts = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const bytes = new Uint8Array(seeds[i % seeds.length]!);
      let mutated: Uint8Array = bytes;
      if (i % 3 === 0)
        for (let k = 0; k < 4; k++) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      else if (i % 3 === 1) mutated = bytes.subarray(0, Math.floor(random() * bytes.length));
      else {
        const at = Math.floor(random() * bytes.length);
        mutated = new Uint8Array([...bytes.subarray(0, at), ...bytes.subarray(at, at + 20), ...bytes.subarray(at)]);
      }
      verdicts.add((await analyseBytes(mutated)).verdict);
    }
    expect(
      [...verdicts].every((v) =>
        ['malicious', 'suspicious', 'benign', 'invalid', 'unscannable', 'unsupported'].includes(v),
      ),
    ).toBe(true);
    expect(verdicts.has('invalid')).toBe(true);
  });
});

describe('bounded memory: a 20 GB file costs a few read windows', () => {
  it('jumps over a 20 GB payload to a dangerous import after it', async () => {
    const payload = 20 * 2 ** 30;
    const head = pickle(op.proto(4), 0x8e, u64le(payload));
    const tail = pickle(op.pop, op.global('os', 'system'), op.stop);
    const size = head.length + payload + tail.length;
    let largestRead = 0;
    let bytesRead = 0;
    // Synthesised on demand: the test holds no more than the analyser asks for.
    const virtual: RandomAccess = {
      size,
      read(offset: number, length: number): Promise<Uint8Array> {
        const end = Math.min(size, offset + length);
        largestRead = Math.max(largestRead, end - offset);
        bytesRead += end - offset;
        const out = new Uint8Array(Math.max(0, end - offset));
        for (let i = offset; i < end; i++) {
          if (i < head.length) out[i - offset] = head[i]!;
          else if (i >= head.length + payload) out[i - offset] = tail[i - head.length - payload]!;
        }
        return Promise.resolve(out);
      },
    };
    const analysis = await analyseSource(virtual, rootContext());
    expect(analysis.findings.map((f) => [f.evidence.callable, f.evidence.offset])).toEqual([
      ['os.system', head.length + payload + 1],
    ]);
    expect(largestRead).toBeLessThanOrEqual(1 << 20);
    expect(bytesRead).toBeLessThan(8 << 20);
  });
});

describe('analyseFile and the streaming scanner', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'artifacts-test-'));

  it('analyses a file by random access with the same result as its bytes', async () => {
    const bytes = zipBytes([{ name: 'archive/data.pkl', data: osSystemPickle(), deflate: true }]);
    const file = path.join(dir, 'model.bin');
    writeFileSync(file, bytes);
    expect(await analyseFile(file)).toEqual(await analyseBytes(bytes));
  });

  it('hashes a stream as it arrives, spills it and removes the spill file', async () => {
    const bytes = zipBytes([{ name: 'archive/data.pkl', data: torchStatePickle() }]);
    const spill = mkdtempSync(path.join(tmpdir(), 'artifacts-spill-'));
    const scanner = createArtifactScanner({ spillDirectory: spill });
    for (let i = 0; i < bytes.length; i += 7) await scanner.write(bytes.subarray(i, i + 7));
    const result = await scanner.end();
    expect(result).toEqual(await analyseBytes(bytes));
    expect(readdirSync(spill)).toEqual([]);
  });

  it('gives the digest before the analysis and reads the spilled bytes back in chunks', async () => {
    const bytes = zipBytes([{ name: 'archive/data.pkl', data: osSystemPickle() }]);
    const spill = mkdtempSync(path.join(tmpdir(), 'artifacts-spill-'));
    const scanner = createArtifactScanner({ spillDirectory: spill });
    await scanner.write(bytes);
    const expected = await analyseBytes(bytes);
    expect(scanner.digest()).toEqual({ sha256: expected.sha256, size: bytes.length });
    await expect(scanner.write(new Uint8Array(1))).rejects.toThrow('scanner already ended');
    const parts: Uint8Array[] = [];
    for await (const part of scanner.chunks(100)) parts.push(part);
    expect(parts.every((p) => p.length <= 100)).toBe(true);
    expect(Buffer.concat(parts).equals(Buffer.from(bytes))).toBe(true);
    expect(await scanner.end()).toEqual(expected);
    expect(readdirSync(spill)).toEqual([]);
  });

  it('refuses a stream past its size cap and removes what it spilled', async () => {
    const spill = mkdtempSync(path.join(tmpdir(), 'artifacts-spill-'));
    const scanner = createArtifactScanner({ spillDirectory: spill, maxBytes: 10 });
    await scanner.write(new Uint8Array(8));
    await expect(scanner.write(new Uint8Array(8))).rejects.toBeInstanceOf(ArtifactTooLargeError);
    expect(readdirSync(spill)).toEqual([]);
  });
});
