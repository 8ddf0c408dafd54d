// Test helpers: run the real `risk-scan` executable as a child process, build trees in temporary folders, validate
// reports against the published schemas (copies in test/schemas, SOURCES.md there).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { checkAgainstSchema } from '@risk/testing';

export const BIN = path.join(__dirname, '..', 'bin', 'risk-scan.cjs');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export function runScan(args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? tmpdir(),
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `risk-scan-${prefix}-`));
}

/** Writes files under `root` (paths with `/`), creating folders. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, ...rel.split('/'));
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

/** A protocol-2 pickle whose REDUCE calls os.system('id') (what a malicious checkpoint does). */
export function maliciousPickle(): Buffer {
  return Buffer.concat([
    Buffer.from([0x80, 0x02]),
    Buffer.from('cposix\nsystem\n', 'latin1'),
    Buffer.from([0x58, 2, 0, 0, 0]),
    Buffer.from('id', 'latin1'),
    Buffer.from([0x85, 0x52, 0x2e]),
  ]);
}

/** A minimal valid safetensors file: an 8-byte header length, a JSON header and its tensor bytes. */
export function safetensors(): Buffer {
  const header = Buffer.from(JSON.stringify({ w: { dtype: 'F32', shape: [2], data_offsets: [0, 8] } }));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([len, header, Buffer.alloc(8)]);
}

const SCHEMAS = path.join(__dirname, 'schemas');
const readJson = (rel: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(SCHEMAS, rel), 'utf8')) as Record<string, unknown>;

function ajv(): Ajv {
  const a = new Ajv({ allErrors: true, strict: false });
  addFormats(a);
  for (const name of ['idn-email', 'iri-reference', 'idn-hostname', 'iri']) a.addFormat(name, true);
  return a;
}

export function sarifErrors(doc: unknown): string[] {
  return checkAgainstSchema('sarif-2.1.0', doc).errors;
}

let cdx: ReturnType<Ajv['compile']> | undefined;
export function cycloneDxErrors(doc: unknown): string[] {
  if (!cdx) {
    const a = ajv();
    a.addSchema(readJson('cyclonedx-1.6/spdx.schema.json'));
    a.addSchema(readJson('cyclonedx-1.6/jsf-0.82.schema.json'));
    cdx = a.compile(readJson('cyclonedx-1.6/bom-1.6.schema.json'));
  }
  return cdx(doc) ? [] : (cdx.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

let spdx: ReturnType<Ajv['compile']> | undefined;
export function spdxErrors(doc: unknown): string[] {
  spdx ??= ajv().compile(readJson('spdx-2.3-schema.json'));
  return spdx(doc) ? [] : (spdx.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
