// A static walk of the pickle virtual machine (protocols 0-5, every opcode of CPython's Lib/pickletools.py) as a
// streaming state machine: bytes arrive in chunks of any size, each opcode is decoded once the bytes it needs are
// buffered, and large payloads (BINBYTES8 of tensor data) are skipped without being held. Values are tracked
// symbolically (strings, ints, imported names, call results, small containers) so STACK_GLOBAL names built from the
// memo or the stack resolve as the load would resolve them. Nothing is imported, called or unpickled
// (docs/artifacts.md "Pickle").
import { readU16LE, readU32LE, readU64LE } from '../little-endian';
import type { ArtifactFinding } from '../types';
import { judgeCallable, isTypeResolver, qualifiedName, dangerousEntry, type CallableJudgement } from './callables';
import {
  decodeEncodedText,
  decodeLatin1,
  decodeQuotedString,
  decodeRawUnicodeEscape,
  decodeUtf8Lenient,
  decodeUtf8Strict,
  looksLikeCode,
} from './text';

export interface PickleLimits {
  /** Opcodes over the whole stream (all sequential pickles). */
  maxOpcodes: number;
  maxMemo: number;
  maxStack: number;
  maxMarks: number;
  /** Longest protocol 0 text line (GLOBAL names, INT, STRING). */
  maxLine: number;
  /** Payloads up to this size are buffered and inspected (nested pickles, code); larger ones are skipped. */
  maxInspectedPayload: number;
  /** Depth of pickles found inside strings that are walked in turn. */
  maxNestedDepth: number;
}

export const DEFAULT_PICKLE_LIMITS: PickleLimits = {
  maxOpcodes: 50_000_000,
  maxMemo: 1_000_000,
  maxStack: 1_000_000,
  maxMarks: 100_000,
  maxLine: 1 << 20,
  maxInspectedPayload: 1 << 20,
  maxNestedDepth: 2,
};

export interface PickleCallable {
  name: string;
  judgement: CallableJudgement;
  /** Offset of the first opcode that imported it. */
  offset: number;
  count: number;
}

export interface PickleWalkOptions {
  /** Archive member path for evidence. */
  member?: string;
  /** Absolute offset of the first byte written (a pickle inside a larger file). */
  baseOffset?: number;
  /** Stop after this many complete pickles (legacy PyTorch files hold five before raw tensor data). */
  maxPickles?: number;
  limits?: Partial<PickleLimits>;
  /** Nesting depth of this walk (pickles inside strings of another pickle). */
  depth?: number;
}

export interface PickleReport {
  /** Complete pickles (STOP reached). */
  pickles: number;
  opcodes: number;
  protocol: number;
  callables: PickleCallable[];
  findings: ArtifactFinding[];
  invalid?: string;
  unscannable?: string;
  /** Absolute offset just past the last complete pickle. */
  endOffset: number;
  /** Offset where the walk stopped because maxPickles was reached (the caller reads on from there), else undefined. */
  stoppedAt?: number;
  /** Joblib NumpyArrayWrapper arrays whose raw bytes were skipped, and whether any globals were joblib's. */
  joblibArrays: number;
  usesJoblib: boolean;
  usesDill: boolean;
  usesCloudpickle: boolean;
}

interface PayloadMeta {
  bytes: boolean;
  off: number;
  raw: Uint8Array | null;
}

type Val =
  | { t: 'str'; v: string; bytes: boolean; truncated: boolean }
  | { t: 'int'; v: number }
  | { t: 'other' }
  | { t: 'global'; name: string; off: number; judgement: CallableJudgement }
  | { t: 'call'; fn: Val; args: Val | null; off: number }
  | { t: 'tuple'; items: Val[] }
  | { t: 'list' | 'set' | 'dict'; items: Val[] };

const OTHER: Val = { t: 'other' };
const EMPTY = new Uint8Array(0);
/** Items kept per container (tuples of call arguments, dict state of BUILD); the rest is counted, not held. */
const KEPT_ITEMS = 64;
/** Characters kept of a string value (names are short; long text is inspected when read, then cut). */
const KEPT_CHARS = 1024;
const MAX_FINDINGS = 200;
const MAX_CALLABLES = 1000;
const MAX_SUSPENDED = 16;

class Stop extends Error {}

const JOBLIB_WRAPPER = 'joblib.numpy_pickle.NumpyArrayWrapper';

export class PickleWalker {
  private readonly limits: PickleLimits;
  private readonly member: string | undefined;
  private readonly depth: number;
  private readonly maxPickles: number;

  private buf: Uint8Array = EMPTY;
  private pos = 0;
  private bufBase: number;
  private skipRemaining = 0;
  /** After a joblib wrapper: read one alignment-length byte next, then skip that many bytes. */
  private pendingAlignment = false;
  private pendingArrayBytes = 0;

  private stack: Val[] = [];
  private marks: number[] = [];
  private memo = new Map<number, Val>();
  private proto = 0;
  private inPickle = false;
  /** Outer pickle states suspended while a joblib object array's own pickle is read. */
  private suspended: { stack: Val[]; marks: number[]; memo: Map<number, Val>; proto: number }[] = [];
  /** Memo entries held by the suspended pickles: they count against the same memo cap. */
  private suspendedMemo = 0;

  private done = false;
  private readonly report: PickleReport;
  private readonly callables = new Map<string, PickleCallable>();
  private readonly findingKeys = new Set<string>();

  constructor(options: PickleWalkOptions = {}) {
    this.limits = { ...DEFAULT_PICKLE_LIMITS, ...options.limits };
    this.member = options.member;
    this.depth = options.depth ?? 0;
    this.maxPickles = options.maxPickles ?? Number.POSITIVE_INFINITY;
    this.bufBase = options.baseOffset ?? 0;
    this.report = {
      pickles: 0,
      opcodes: 0,
      protocol: 0,
      callables: [],
      findings: [],
      endOffset: this.bufBase,
      joblibArrays: 0,
      usesJoblib: false,
      usesDill: false,
      usesCloudpickle: false,
    };
  }

  /** True once the walk needs no more bytes (error, cap, or maxPickles reached). */
  get finished(): boolean {
    return this.done;
  }

  write(chunk: Uint8Array): void {
    if (this.done || chunk.length === 0) return;
    let c = chunk;
    if (this.skipRemaining > 0) {
      const n = Math.min(this.skipRemaining, c.length);
      this.skipRemaining -= n;
      this.bufBase += this.buf.length + n;
      this.buf = EMPTY;
      this.pos = 0;
      c = c.subarray(n);
      if (c.length === 0) return;
    }
    if (this.pos < this.buf.length) {
      const rest = this.buf.subarray(this.pos);
      const joined = new Uint8Array(rest.length + c.length);
      joined.set(rest, 0);
      joined.set(c, rest.length);
      this.bufBase += this.pos;
      this.buf = joined;
    } else {
      this.bufBase += this.buf.length;
      this.buf = c;
    }
    this.pos = 0;
    try {
      this.run();
    } catch (error) {
      if (!(error instanceof Stop)) throw error;
    }
  }

  /**
   * A random-access caller's shortcut past a payload the walk skips (tensor bytes): consumes up to `available` bytes
   * of the pending skip without their being read, and returns how many. The next write continues after them.
   */
  skipWithin(available: number): number {
    if (this.skipRemaining === 0 || this.done) return 0;
    const n = Math.min(this.skipRemaining, available);
    this.skipRemaining -= n;
    this.bufBase += this.buf.length + n;
    this.buf = EMPTY;
    this.pos = 0;
    return n;
  }

  end(): PickleReport {
    if (!this.done) {
      const pending = this.buf.length - this.pos;
      if (this.skipRemaining > 0 || this.inPickle || this.suspended.length > 0) {
        this.setInvalid(`truncated: the stream ends inside a pickle at byte ${this.bufBase + this.buf.length}`);
      } else if (pending > 0) {
        this.setInvalid(`${pending} bytes after the last STOP at byte ${this.report.endOffset} are not a pickle`);
      } else if (this.report.pickles === 0) {
        this.setInvalid('empty stream');
      }
      this.done = true;
    }
    this.report.callables = [...this.callables.values()];
    return this.report;
  }

  // ---- findings -------------------------------------------------------------------------------------------------

  private offsetOf(pos: number): number {
    return this.bufBase + pos;
  }

  private addFinding(finding: ArtifactFinding, key: string): void {
    if (this.findingKeys.has(key) || this.report.findings.length >= MAX_FINDINGS) return;
    this.findingKeys.add(key);
    if (this.member !== undefined) finding.evidence.member = this.member;
    this.report.findings.push(finding);
  }

  private setInvalid(reason: string): void {
    if (this.report.invalid === undefined && this.report.unscannable === undefined) this.report.invalid = reason;
    this.done = true;
  }

  private fail(reason: string, pos: number): never {
    this.setInvalid(`${reason} at byte ${this.offsetOf(pos)}`);
    throw new Stop();
  }

  private cap(reason: string): never {
    if (this.report.unscannable === undefined) this.report.unscannable = reason;
    this.done = true;
    throw new Stop();
  }

  /** Records an import (GLOBAL, INST, STACK_GLOBAL, a resolved type) and raises its finding. */
  private importName(qualname: string, off: number): Val {
    const judgement = judgeCallable(qualname);
    const known = this.callables.get(qualname);
    if (known !== undefined) known.count++;
    else if (this.callables.size < MAX_CALLABLES) {
      this.callables.set(qualname, { name: qualname, judgement, offset: off, count: 1 });
    }
    if (qualname.startsWith('joblib.')) this.report.usesJoblib = true;
    if (qualname.startsWith('dill.')) this.report.usesDill = true;
    if (qualname.startsWith('cloudpickle.')) this.report.usesCloudpickle = true;
    if (judgement === 'dangerous') {
      const entry = dangerousEntry(qualname);
      this.addFinding(
        {
          id: 'pickle.dangerous_callable',
          severity: 'critical',
          verdict: 'malicious',
          message: `Loading imports ${qualname} (${entry?.why ?? 'dangerous'})`,
          evidence: { callable: qualname, offset: off },
        },
        `d:${qualname}`,
      );
    } else if (judgement === 'code_builder') {
      this.addFinding(
        {
          id: 'pickle.code_builder',
          severity: 'high',
          verdict: 'suspicious',
          message: `Loading rebuilds a function from pickled bytecode with ${qualname}`,
          evidence: { callable: qualname, offset: off },
        },
        `b:${qualname}`,
      );
    } else if (judgement === 'unknown') {
      this.addFinding(
        {
          id: 'pickle.unknown_callable',
          severity: 'medium',
          verdict: 'suspicious',
          message: `Loading imports ${qualname}, which is on neither the safe nor the dangerous list`,
          evidence: { callable: qualname, offset: off },
        },
        `u:${qualname}`,
      );
    }
    return { t: 'global', name: qualname, off, judgement };
  }

  /** A call the load makes: REDUCE, NEWOBJ(_EX), OBJ, INST. */
  private call(fn: Val, args: Val | null, off: number): Val {
    if (fn.t === 'global') {
      if (isTypeResolver(fn.name) && args?.t === 'tuple' && args.items[0]?.t === 'str' && !args.items[0].truncated) {
        // cloudpickle/dill resolve builtin types by name: `_builtin_type('CodeType')` is `types.CodeType`.
        return this.importName(`types.${args.items[0].v}`, off);
      }
      return { t: 'call', fn, args, off };
    }
    if (fn.t === 'call' && fn.fn.t === 'global' && fn.fn.judgement === 'code_builder') {
      this.addFinding(
        {
          id: 'pickle.rebuilt_function_called',
          severity: 'critical',
          verdict: 'malicious',
          message: `Loading calls a function rebuilt from pickled bytecode by ${fn.fn.name}`,
          evidence: { callable: fn.fn.name, offset: off },
        },
        `r:${fn.fn.name}`,
      );
    } else if (fn.t === 'call' && fn.fn.t === 'global' && fn.fn.judgement === 'dangerous') {
      // The result of a dangerous gadget (getattr, attrgetter(...)(obj)) is called: already malicious by import.
    } else {
      const described = fn.t === 'call' && fn.fn.t === 'global' ? `the result of ${fn.fn.name}` : `a ${fn.t} value`;
      this.addFinding(
        {
          id: 'pickle.indirect_call',
          severity: 'high',
          verdict: 'suspicious',
          message: `Loading calls ${described}, not an imported name`,
          evidence: { offset: off, ...(fn.t === 'call' && fn.fn.t === 'global' ? { callable: fn.fn.name } : {}) },
        },
        `i:${described}`,
      );
    }
    return { t: 'call', fn, args, off };
  }

  // ---- values ---------------------------------------------------------------------------------------------------

  private push(value: Val): void {
    if (this.stack.length >= this.limits.maxStack) this.cap(`pickle stack deeper than ${this.limits.maxStack}`);
    this.stack.push(value);
  }

  private pop(pos: number): Val {
    const floor = this.marks.length > 0 ? this.marks[this.marks.length - 1]! : 0;
    if (this.stack.length <= floor) this.fail('stack underflow', pos);
    return this.stack.pop()!;
  }

  private top(pos: number): Val {
    const floor = this.marks.length > 0 ? this.marks[this.marks.length - 1]! : 0;
    if (this.stack.length <= floor) this.fail('stack underflow', pos);
    return this.stack[this.stack.length - 1]!;
  }

  private popMark(pos: number): Val[] {
    if (this.marks.length === 0) this.fail('no MARK on the stack', pos);
    const at = this.marks.pop()!;
    return this.stack.splice(at);
  }

  private text(value: string, meta: PayloadMeta): Val {
    const { bytes } = meta;
    this.inspectPayload(value, meta);
    if (value.length > KEPT_CHARS) return { t: 'str', v: value.slice(0, KEPT_CHARS), bytes, truncated: true };
    return { t: 'str', v: value, bytes, truncated: false };
  }

  private bytesValue(raw: Uint8Array, off: number, fullLength: number): Val {
    if (raw.length < fullLength) {
      this.inspectPayload(null, { bytes: true, off, raw });
      return { t: 'str', v: decodeLatin1(raw.subarray(0, KEPT_CHARS)), bytes: true, truncated: true };
    }
    return this.text(decodeLatin1(raw.subarray(0, Math.min(raw.length, 64 * 1024))), { bytes: true, off, raw });
  }

  /** Strings and bytes are data, but a pickle or code hidden in them is worth a reviewer's look. */
  private inspectPayload(text: string | null, meta: PayloadMeta): void {
    const { bytes: isBytes, off, raw } = meta;
    if (raw !== null && raw.length >= 6 && raw[0] === 0x80 && raw[1]! >= 2 && raw[1]! <= 5) {
      this.inspectEmbedded(raw, off, 'raw');
    } else if (text !== null && text.length >= 12 && !isBytes) {
      const head = text.slice(0, 8);
      if (head.startsWith('gA') || head.startsWith('80')) {
        const decoded = decodeEncodedText(text.trim());
        if (decoded !== null && decoded[0] === 0x80)
          this.inspectEmbedded(decoded, off, head.startsWith('gA') ? 'base64' : 'hex');
      }
    }
    if (text === null || isBytes || text.length < 8) return;
    const sample = text.length > 64 * 1024 ? text.slice(0, 64 * 1024) : text;
    let code = looksLikeCode(sample);
    if (!code && sample.length >= 16 && sample.length <= 64 * 1024 && !sample.includes(' ') && !sample.includes('.')) {
      const decoded = decodeEncodedText(sample);
      if (decoded !== null) code = looksLikeCode(decodeLatin1(decoded));
    }
    if (code) {
      this.addFinding(
        {
          id: 'pickle.code_string',
          severity: 'medium',
          verdict: 'suspicious',
          message:
            'A string in the pickle holds Python code that runs commands or evaluates code (not run by the load itself)',
          evidence: { offset: off, excerpt: sample.slice(0, 200) },
        },
        `c:${off}`,
      );
    }
  }

  private inspectEmbedded(bytes: Uint8Array, off: number, encoding: string): void {
    if (this.depth >= this.limits.maxNestedDepth) return;
    const inner = new PickleWalker({ depth: this.depth + 1, limits: this.limits, maxPickles: 1 });
    inner.write(bytes);
    const report = inner.end();
    if (report.pickles === 0) return;
    const risky = report.callables.filter((c) => c.judgement !== 'safe');
    const innerBad = report.findings.some((f) => f.verdict === 'malicious' || f.verdict === 'suspicious');
    if (risky.length === 0 && !innerBad) return;
    this.addFinding(
      {
        id: 'pickle.embedded_pickle',
        severity: report.findings.some((f) => f.verdict === 'malicious') ? 'high' : 'medium',
        verdict: 'suspicious',
        message: `A ${encoding} string holds another pickle that imports ${risky
          .map((c) => c.name)
          .slice(0, 5)
          .join(', ')}; this load does not unpickle it, a later one might`,
        evidence: { offset: off, ...(risky[0] !== undefined ? { callable: risky[0].name } : {}) },
      },
      `e:${off}`,
    );
  }

  // ---- the machine ----------------------------------------------------------------------------------------------

  private readLine(from: number): number {
    const buf = this.buf;
    const limit = Math.min(buf.length, from + this.limits.maxLine + 1);
    for (let i = from; i < limit; i++) if (buf[i] === 0x0a) return i;
    if (buf.length - from > this.limits.maxLine)
      this.cap(`a protocol 0 text line longer than ${this.limits.maxLine} bytes`);
    return -1;
  }

  private uint(at: number, size: 1 | 2 | 4): number {
    const b = this.buf;
    if (size === 1) return b[at]!;
    return size === 2 ? readU16LE(b, at) : readU32LE(b, at);
  }

  private u64(at: number, pos: number): number {
    const value = readU64LE(this.buf, at);
    if (!Number.isSafeInteger(value)) this.fail('a length beyond 2^53', pos);
    return value;
  }

  private memoPut(index: number, value: Val): void {
    if (!this.memo.has(index) && this.memo.size + this.suspendedMemo >= this.limits.maxMemo) {
      this.cap(`pickle memo larger than ${this.limits.maxMemo}`);
    }
    this.memo.set(index, value);
  }

  private memoGet(index: number, pos: number): Val {
    const value = this.memo.get(index);
    if (value === undefined) this.fail(`memo key ${index} was never stored`, pos);
    return value;
  }

  private addToContainer(container: Val, items: Val[]): void {
    if (container.t === 'list' || container.t === 'set' || container.t === 'dict') {
      for (const item of items) {
        if (container.items.length >= KEPT_ITEMS) break;
        container.items.push(item);
      }
    }
  }

  /**
   * A payload opcode with a length prefix: buffers up to maxInspectedPayload and inspects it; anything longer is
   * skipped in the stream (tensor bytes) with only a prefix kept. Returns false when more bytes are needed.
   */
  private payload(pos: number, spec: { header: number; length: number; kind: 'bytes' | 'utf8' | 'latin1' }): boolean {
    const { header: headerLength, length, kind } = spec;
    const start = pos + headerLength;
    const available = this.buf.length - start;
    const off = this.offsetOf(pos);
    if (length <= this.limits.maxInspectedPayload) {
      if (available < length) return false;
      const raw = this.buf.subarray(start, start + length);
      if (kind === 'bytes') this.push(this.bytesValue(raw, off, length));
      else if (kind === 'latin1') this.push(this.text(decodeLatin1(raw), { bytes: true, off, raw }));
      else {
        const decoded = decodeUtf8Strict(raw);
        if (decoded === null) this.fail('invalid UTF-8 in a unicode string', pos);
        this.push(this.text(decoded, { bytes: false, off, raw }));
      }
      this.pos = start + length;
      return true;
    }
    if (available < 16) return false;
    const prefix = this.buf.subarray(start, Math.min(this.buf.length, start + length));
    this.push(
      kind === 'utf8'
        ? { t: 'str', v: decodeUtf8Lenient(prefix.subarray(0, KEPT_CHARS)), bytes: false, truncated: true }
        : this.bytesValue(prefix, off, length),
    );
    this.skipRemaining = length - prefix.length;
    this.pos = this.buf.length;
    return true;
  }

  private run(): void {
    while (!this.done) {
      if (this.pendingAlignment) {
        if (this.pos >= this.buf.length) return;
        const padding = this.buf[this.pos]!;
        this.pos++;
        this.pendingAlignment = false;
        this.pendingArrayBytes += padding;
      }
      if (this.pendingArrayBytes > 0) {
        const available = this.buf.length - this.pos;
        const n = Math.min(available, this.pendingArrayBytes);
        this.pos += n;
        this.pendingArrayBytes -= n;
        if (this.pendingArrayBytes > 0) {
          this.skipRemaining = this.pendingArrayBytes;
          this.pendingArrayBytes = 0;
          return;
        }
      }
      if (this.pos >= this.buf.length) return;
      if (!this.step()) return;
    }
  }

  /** Decodes one opcode at `pos`; false when its bytes are not all buffered yet (nothing consumed). */
  private step(): boolean {
    const pos = this.pos;
    const buf = this.buf;
    const op = buf[pos]!;
    const off = this.offsetOf(pos);
    const avail = buf.length - pos - 1;
    if (!this.inPickle) {
      // Whitespace or NUL padding after a complete pickle is not another pickle (files saved with a trailing newline).
      if (this.report.pickles > 0 && (op === 0x0a || op === 0x0d || op === 0x20 || op === 0x00)) {
        this.pos = pos + 1;
        this.report.endOffset = this.offsetOf(pos + 1);
        return true;
      }
      this.inPickle = true;
      this.proto = 0;
    }
    if (++this.report.opcodes > this.limits.maxOpcodes) {
      this.report.opcodes--;
      this.cap(`more than ${this.limits.maxOpcodes} pickle opcodes`);
    }
    let next = pos + 1;
    switch (op) {
      case 0x80: {
        // PROTO
        if (avail < 1) return this.retreat();
        const version = buf[pos + 1]!;
        if (version > 5) this.fail(`unsupported pickle protocol ${version}`, pos);
        this.proto = version;
        this.report.protocol = Math.max(this.report.protocol, version);
        next = pos + 2;
        break;
      }
      case 0x95: // FRAME: only groups opcodes for buffering
        if (avail < 8) return this.retreat();
        this.u64(pos + 1, pos);
        next = pos + 9;
        break;
      case 0x2e: {
        // STOP
        const result = this.pop(pos);
        void result;
        this.pos = pos + 1;
        this.finishPickle(pos);
        return true;
      }
      case 0x28: // MARK
        if (this.marks.length >= this.limits.maxMarks) this.cap(`more than ${this.limits.maxMarks} nested MARKs`);
        this.marks.push(this.stack.length);
        break;
      case 0x30: // POP
        if (this.stack.length > (this.marks.length > 0 ? this.marks[this.marks.length - 1]! : 0)) this.stack.pop();
        else if (this.marks.length > 0) this.popMark(pos);
        else this.fail('stack underflow', pos);
        break;
      case 0x31: // POP_MARK
        this.popMark(pos);
        break;
      case 0x32: // DUP
        this.push(this.top(pos));
        break;
      // ---- numbers and constants
      case 0x4e: // NONE
      case 0x88: // NEWTRUE
      case 0x89: // NEWFALSE
        this.push(OTHER);
        break;
      case 0x4a: // BININT
        if (avail < 4) return this.retreat();
        this.push({ t: 'int', v: this.uint(pos + 1, 4) | 0 });
        next = pos + 5;
        break;
      case 0x4b: // BININT1
        if (avail < 1) return this.retreat();
        this.push({ t: 'int', v: buf[pos + 1]! });
        next = pos + 2;
        break;
      case 0x4d: // BININT2
        if (avail < 2) return this.retreat();
        this.push({ t: 'int', v: this.uint(pos + 1, 2) });
        next = pos + 3;
        break;
      case 0x8a: {
        // LONG1
        if (avail < 1) return this.retreat();
        const n = buf[pos + 1]!;
        if (avail < 1 + n) return this.retreat();
        this.push(this.longValue(pos + 2, n));
        next = pos + 2 + n;
        break;
      }
      case 0x8b: {
        // LONG4
        if (avail < 4) return this.retreat();
        const n = this.uint(pos + 1, 4);
        if (n >= 0x80000000) this.fail('negative LONG4 length', pos);
        if (n > this.limits.maxInspectedPayload) {
          if (!this.payload(pos, { header: 5, length: n, kind: 'bytes' })) return this.retreat();
          this.stack[this.stack.length - 1] = OTHER;
          return true;
        }
        if (avail < 4 + n) return this.retreat();
        this.push(this.longValue(pos + 5, n));
        next = pos + 5 + n;
        break;
      }
      case 0x47: // BINFLOAT
        if (avail < 8) return this.retreat();
        this.push(OTHER);
        next = pos + 9;
        break;
      case 0x49: // INT
      case 0x4c: // LONG
      case 0x46: {
        // FLOAT
        const nl = this.readLine(pos + 1);
        if (nl < 0) return this.retreat();
        const line = decodeLatin1(buf.subarray(pos + 1, nl)).trim();
        if (op === 0x46) {
          if (!isPythonFloat(line)) {
            this.fail('FLOAT argument is not a number', pos);
          }
          this.push(OTHER);
        } else {
          const digits = op === 0x4c ? line.replace(/L$/, '') : line;
          if (!/^[-+]?\d+$/.test(digits)) this.fail(`${op === 0x49 ? 'INT' : 'LONG'} argument is not an integer`, pos);
          const value = Number(digits);
          this.push(Number.isSafeInteger(value) ? { t: 'int', v: value } : OTHER);
        }
        next = nl + 1;
        break;
      }
      // ---- strings and bytes
      case 0x53: {
        // STRING
        const nl = this.readLine(pos + 1);
        if (nl < 0) return this.retreat();
        const decoded = decodeQuotedString(decodeLatin1(buf.subarray(pos + 1, nl)).replace(/\r$/, ''));
        if (decoded === null) this.fail('STRING argument is not quoted', pos);
        this.push(this.text(decoded, { bytes: false, off, raw: null }));
        next = nl + 1;
        break;
      }
      case 0x56: {
        // UNICODE
        const nl = this.readLine(pos + 1);
        if (nl < 0) return this.retreat();
        this.push(this.text(decodeRawUnicodeEscape(buf.subarray(pos + 1, nl)), { bytes: false, off, raw: null }));
        next = nl + 1;
        break;
      }
      case 0x54: {
        // BINSTRING (signed 4-byte length)
        if (avail < 4) return this.retreat();
        const n = this.uint(pos + 1, 4);
        if (n >= 0x80000000) this.fail('negative BINSTRING length', pos);
        return this.payload(pos, { header: 5, length: n, kind: 'latin1' }) || this.retreat();
      }
      case 0x55: // SHORT_BINSTRING
        if (avail < 1) return this.retreat();
        return this.payload(pos, { header: 2, length: buf[pos + 1]!, kind: 'latin1' }) || this.retreat();
      case 0x42: // BINBYTES
        if (avail < 4) return this.retreat();
        return this.payload(pos, { header: 5, length: this.uint(pos + 1, 4), kind: 'bytes' }) || this.retreat();
      case 0x43: // SHORT_BINBYTES
        if (avail < 1) return this.retreat();
        return this.payload(pos, { header: 2, length: buf[pos + 1]!, kind: 'bytes' }) || this.retreat();
      case 0x8e: // BINBYTES8
      case 0x96: // BYTEARRAY8
        if (avail < 8) return this.retreat();
        return this.payload(pos, { header: 9, length: this.u64(pos + 1, pos), kind: 'bytes' }) || this.retreat();
      case 0x58: // BINUNICODE
        if (avail < 4) return this.retreat();
        return this.payload(pos, { header: 5, length: this.uint(pos + 1, 4), kind: 'utf8' }) || this.retreat();
      case 0x8c: // SHORT_BINUNICODE
        if (avail < 1) return this.retreat();
        return this.payload(pos, { header: 2, length: buf[pos + 1]!, kind: 'utf8' }) || this.retreat();
      case 0x8d: // BINUNICODE8
        if (avail < 8) return this.retreat();
        return this.payload(pos, { header: 9, length: this.u64(pos + 1, pos), kind: 'utf8' }) || this.retreat();
      case 0x97: // NEXT_BUFFER (out-of-band buffer)
        this.push(OTHER);
        break;
      case 0x98: // READONLY_BUFFER
        this.top(pos);
        break;
      // ---- containers
      case 0x29: // EMPTY_TUPLE
        this.push({ t: 'tuple', items: [] });
        break;
      case 0x85: // TUPLE1
        this.push({ t: 'tuple', items: [this.pop(pos)] });
        break;
      case 0x86: {
        // TUPLE2
        const b = this.pop(pos);
        const a = this.pop(pos);
        this.push({ t: 'tuple', items: [a, b] });
        break;
      }
      case 0x87: {
        // TUPLE3
        const c = this.pop(pos);
        const b = this.pop(pos);
        const a = this.pop(pos);
        this.push({ t: 'tuple', items: [a, b, c] });
        break;
      }
      case 0x74: // TUPLE
        this.push({ t: 'tuple', items: this.popMark(pos).slice(0, KEPT_ITEMS) });
        break;
      case 0x5d: // EMPTY_LIST
        this.push({ t: 'list', items: [] });
        break;
      case 0x6c: // LIST
        this.push({ t: 'list', items: this.popMark(pos).slice(0, KEPT_ITEMS) });
        break;
      case 0x7d: // EMPTY_DICT
        this.push({ t: 'dict', items: [] });
        break;
      case 0x64: {
        // DICT
        const items = this.popMark(pos);
        if (items.length % 2 !== 0) this.fail('odd number of items for DICT', pos);
        this.push({ t: 'dict', items: items.slice(0, KEPT_ITEMS) });
        break;
      }
      case 0x8f: // EMPTY_SET
        this.push({ t: 'set', items: [] });
        break;
      case 0x91: // FROZENSET
        this.push({ t: 'set', items: this.popMark(pos).slice(0, KEPT_ITEMS) });
        break;
      case 0x61: {
        // APPEND
        const item = this.pop(pos);
        this.addToContainer(this.top(pos), [item]);
        break;
      }
      case 0x65: {
        // APPENDS
        const items = this.popMark(pos);
        this.addToContainer(this.top(pos), items);
        break;
      }
      case 0x90: {
        // ADDITEMS
        const items = this.popMark(pos);
        this.addToContainer(this.top(pos), items);
        break;
      }
      case 0x73: {
        // SETITEM
        const value = this.pop(pos);
        const key = this.pop(pos);
        this.addToContainer(this.top(pos), [key, value]);
        break;
      }
      case 0x75: {
        // SETITEMS
        const items = this.popMark(pos);
        if (items.length % 2 !== 0) this.fail('odd number of items for SETITEMS', pos);
        this.addToContainer(this.top(pos), items);
        break;
      }
      // ---- memo
      case 0x70: {
        // PUT
        const nl = this.readLine(pos + 1);
        if (nl < 0) return this.retreat();
        const index = this.decimal(pos + 1, nl, pos);
        this.memoPut(index, this.top(pos));
        next = nl + 1;
        break;
      }
      case 0x71: // BINPUT
        if (avail < 1) return this.retreat();
        this.memoPut(buf[pos + 1]!, this.top(pos));
        next = pos + 2;
        break;
      case 0x72: // LONG_BINPUT
        if (avail < 4) return this.retreat();
        this.memoPut(this.uint(pos + 1, 4), this.top(pos));
        next = pos + 5;
        break;
      case 0x94: // MEMOIZE
        this.memoPut(this.memo.size, this.top(pos));
        break;
      case 0x67: {
        // GET
        const nl = this.readLine(pos + 1);
        if (nl < 0) return this.retreat();
        this.push(this.memoGet(this.decimal(pos + 1, nl, pos), pos));
        next = nl + 1;
        break;
      }
      case 0x68: // BINGET
        if (avail < 1) return this.retreat();
        this.push(this.memoGet(buf[pos + 1]!, pos));
        next = pos + 2;
        break;
      case 0x6a: // LONG_BINGET
        if (avail < 4) return this.retreat();
        this.push(this.memoGet(this.uint(pos + 1, 4), pos));
        next = pos + 5;
        break;
      // ---- imports and calls
      case 0x63: // GLOBAL
      case 0x69: {
        // INST
        const nl1 = this.readLine(pos + 1);
        if (nl1 < 0) return this.retreat();
        const nl2 = this.readLine(nl1 + 1);
        if (nl2 < 0) return this.retreat();
        const module = decodeUtf8Strict(buf.subarray(pos + 1, nl1));
        const name = decodeUtf8Strict(buf.subarray(nl1 + 1, nl2));
        if (module === null || name === null) this.fail(`${op === 0x63 ? 'GLOBAL' : 'INST'} name is not UTF-8`, pos);
        if (module.length === 0 || name.length === 0) this.fail('empty module or name', pos);
        const imported = this.importName(qualifiedName(module, name), off);
        if (op === 0x63) this.push(imported);
        else {
          const args = this.popMark(pos);
          this.push(this.call(imported, { t: 'tuple', items: args.slice(0, KEPT_ITEMS) }, off));
        }
        next = nl2 + 1;
        break;
      }
      case 0x93: {
        // STACK_GLOBAL
        const name = this.pop(pos);
        const module = this.pop(pos);
        if (name.t === 'str' && module.t === 'str' && !name.bytes && !module.bytes) {
          const qualname = qualifiedName(module.v, name.v) + (name.truncated || module.truncated ? '…' : '');
          this.push(this.importName(qualname, off));
        } else if (
          (name.t === 'str' && name.bytes) ||
          (module.t === 'str' && module.bytes) ||
          name.t === 'int' ||
          module.t === 'int' ||
          name.t === 'tuple' ||
          module.t === 'tuple'
        ) {
          this.fail('STACK_GLOBAL requires str operands', pos);
        } else {
          // The names are objects the load computes (call results, imported attributes overwritten by BUILD): the
          // import target is decided at load time, so it can be anything (the allowlist-overwrite technique).
          this.addFinding(
            {
              id: 'pickle.dynamic_global',
              severity: 'critical',
              verdict: 'malicious',
              message: 'STACK_GLOBAL imports a name computed at load time (not a string in the pickle)',
              evidence: { offset: off, ...(module.t === 'global' ? { callable: module.name } : {}) },
            },
            `g:${off}`,
          );
          this.push({ t: 'global', name: '<dynamic>', off, judgement: 'dangerous' });
        }
        break;
      }
      case 0x82: // EXT1
      case 0x83: // EXT2
      case 0x84: {
        // EXT4
        const size = op === 0x82 ? 1 : op === 0x83 ? 2 : 4;
        if (avail < size) return this.retreat();
        const code = this.uint(pos + 1, size);
        this.addFinding(
          {
            id: 'pickle.extension_code',
            severity: 'high',
            verdict: 'suspicious',
            message: `Loading imports the callable registered under extension code ${code} (copyreg registry: unknown)`,
            evidence: { offset: off, callable: `<extension ${code}>` },
          },
          `x:${code}`,
        );
        this.push({ t: 'global', name: `<extension ${code}>`, off, judgement: 'unknown' });
        next = pos + 1 + size;
        break;
      }
      case 0x52: {
        // REDUCE
        const args = this.pop(pos);
        const fn = this.pop(pos);
        this.push(this.call(fn, args, off));
        break;
      }
      case 0x81: {
        // NEWOBJ
        const args = this.pop(pos);
        const cls = this.pop(pos);
        this.push(this.call(cls, args, off));
        break;
      }
      case 0x92: {
        // NEWOBJ_EX
        this.pop(pos);
        const args = this.pop(pos);
        const cls = this.pop(pos);
        this.push(this.call(cls, args, off));
        break;
      }
      case 0x6f: {
        // OBJ
        const items = this.popMark(pos);
        if (items.length === 0) this.fail('OBJ without a class', pos);
        this.push(this.call(items[0]!, { t: 'tuple', items: items.slice(1, KEPT_ITEMS) }, off));
        break;
      }
      case 0x62: {
        // BUILD
        const state = this.pop(pos);
        const target = this.top(pos);
        if (target.t === 'global') {
          this.addFinding(
            {
              id: 'pickle.global_state_overwrite',
              severity: 'critical',
              verdict: 'malicious',
              message: `BUILD sets attributes on the imported object ${target.name} (module or class poisoning)`,
              evidence: { callable: target.name, offset: off },
            },
            `o:${target.name}`,
          );
        } else if (target.t === 'call' && target.fn.t === 'global' && target.fn.name === JOBLIB_WRAPPER) {
          this.joblibArray(state, pos);
        }
        break;
      }
      case 0x50: {
        // PERSID
        const nl = this.readLine(pos + 1);
        if (nl < 0) return this.retreat();
        this.push(OTHER);
        next = nl + 1;
        break;
      }
      case 0x51: // BINPERSID: torch storages are persistent ids; their type names were judged when imported
        this.pop(pos);
        this.push(OTHER);
        break;
      default:
        this.fail(`unknown opcode 0x${op.toString(16).padStart(2, '0')}`, pos);
    }
    this.pos = next;
    return true;
  }

  /** Puts back the opcode count of an opcode whose bytes are not all here yet. */
  private retreat(): false {
    this.report.opcodes--;
    return false;
  }

  private decimal(from: number, to: number, pos: number): number {
    const text = decodeLatin1(this.buf.subarray(from, to)).trim();
    if (!/^\d{1,15}$/.test(text)) this.fail('memo index is not a number', pos);
    return Number(text);
  }

  private longValue(at: number, n: number): Val {
    if (n === 0) return { t: 'int', v: 0 };
    if (n > 6) return OTHER;
    let value = 0;
    for (let i = n - 1; i >= 0; i--) value = value * 256 + this.buf[at + i]!;
    if (this.buf[at + n - 1]! & 0x80) value -= 2 ** (8 * n);
    return { t: 'int', v: value };
  }

  private finishPickle(pos: number): void {
    if (this.marks.length > 0 || this.stack.length !== 0) {
      // CPython returns the top of the stack and ignores leftovers; not a reason to refuse, but a sign of crafting.
      this.stack = [];
      this.marks = [];
    }
    const outer = this.suspended.pop();
    if (outer !== undefined) {
      // A joblib object array's pickle ended: the outer pickle goes on with the array on its stack.
      this.stack = outer.stack;
      this.marks = outer.marks;
      this.memo = outer.memo;
      this.suspendedMemo -= outer.memo.size;
      this.proto = outer.proto;
      this.stack.push(OTHER);
      return;
    }
    this.report.pickles++;
    this.report.endOffset = this.offsetOf(pos + 1);
    this.inPickle = false;
    this.memo = new Map();
    if (this.report.pickles >= this.maxPickles) {
      this.report.stoppedAt = this.report.endOffset;
      this.done = true;
      throw new Stop();
    }
  }

  /** joblib writes a wrapped array's bytes right after the wrapper's BUILD (joblib/numpy_pickle.py read_array). */
  private joblibArray(state: Val, pos: number): void {
    const entries = new Map<string, Val>();
    if (state.t === 'dict') {
      for (let i = 0; i + 1 < state.items.length; i += 2) {
        const key = state.items[i]!;
        if (key.t === 'str') entries.set(key.v, state.items[i + 1]!);
      }
    }
    const shape = entries.get('shape');
    const dtype = entries.get('dtype');
    if (shape?.t !== 'tuple' || dtype === undefined)
      this.cap('a joblib array wrapper without a readable shape and dtype');
    let count = 1;
    for (const dim of shape.items) {
      if (dim.t !== 'int' || dim.v < 0) this.cap('a joblib array wrapper with a non-integer shape');
      count *= dim.v;
    }
    const itemSize = dtypeItemSize(dtype);
    this.report.joblibArrays++;
    if (itemSize === 'object') {
      // The array's objects are a pickle of their own, read by pickle.load on the same stream. Each suspended
      // pickle keeps its memo, so their nesting is capped like the memo itself.
      if (this.suspended.length >= MAX_SUSPENDED) this.cap(`joblib object arrays nested deeper than ${MAX_SUSPENDED}`);
      this.stack.pop();
      this.suspended.push({ stack: this.stack, marks: this.marks, memo: this.memo, proto: this.proto });
      this.suspendedMemo += this.memo.size;
      this.stack = [];
      this.marks = [];
      this.memo = new Map();
      return;
    }
    if (itemSize === null) this.cap('a joblib array wrapper whose dtype size is unknown');
    const alignment = entries.get('numpy_array_alignment_bytes');
    this.pendingAlignment = alignment !== undefined && alignment.t === 'int';
    const total = count * itemSize;
    if (!Number.isSafeInteger(total)) this.fail('a joblib array larger than 2^53 bytes', pos);
    this.pendingArrayBytes = total;
  }
}

/** What Python's float() accepts for the FLOAT opcode: decimal or exponent notation, inf and nan. */
function isPythonFloat(text: string): boolean {
  const lower = text.toLowerCase().replace(/^[-+]/, '');
  if (lower === 'inf' || lower === 'infinity' || lower === 'nan') return true;
  return /^[0-9._eE+-]+$/.test(lower) && lower.length > 0 && !Number.isNaN(Number(lower.replace(/_/g, '')));
}

/** Element size of a pickled numpy.dtype (its constructor's type string and the elsize field of its state). */
function dtypeItemSize(dtype: Val): number | 'object' | null {
  if (dtype.t !== 'call' || dtype.fn.t !== 'global' || dtype.fn.name !== 'numpy.dtype') return null;
  const typeString = dtype.args?.t === 'tuple' ? dtype.args.items[0] : undefined;
  if (typeString?.t !== 'str') return null;
  const match = /^[<>|=]?([a-zA-Z])(\d*)$/.exec(typeString.v);
  if (match === null) return null;
  const kind = match[1]!;
  if (kind === 'O') return 'object';
  const digits = match[2] === '' ? NaN : Number(match[2]);
  const sizes: Record<string, number> = {
    b: 1,
    B: 1,
    h: 2,
    H: 2,
    i: 4,
    I: 4,
    l: 8,
    L: 8,
    q: 8,
    Q: 8,
    e: 2,
    f: 4,
    d: 8,
    g: 16,
    F: 8,
    D: 16,
    '?': 1,
  };
  if (['i', 'u', 'f', 'c', 'b', 'm', 'M'].includes(kind) && !Number.isNaN(digits)) return digits;
  if (kind === 'U' && !Number.isNaN(digits)) return digits * 4;
  if ((kind === 'S' || kind === 'V' || kind === 'a') && !Number.isNaN(digits)) return digits;
  return sizes[kind] ?? null;
}
