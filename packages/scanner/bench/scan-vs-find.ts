// Benchmark (not a test; docs/scanner.md "Speed"): a generated tree of 10,000 files holding 200 manifests and 20 model
// files (1 GiB in all), scanned by risk-scan and hashed by `find … | xargs sha256sum` in the same run. The scanner reads
// every model file once (hash and analysis together) and only the heads of other binaries, so it must stay within
// twice the plain hashing time. Run: pnpm --filter @risk/scanner bench [-- --keep]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const FILES = 10_000;
const MANIFESTS = 200;
const MODELS = 20;
const TOTAL_BYTES = 1024 ** 3;
const BIN = path.join(__dirname, '..', 'bin', 'risk-scan.cjs');

function safetensorsHeader(bytes: number): Buffer {
  const header = Buffer.from(JSON.stringify({ w: { dtype: 'U8', shape: [bytes], data_offsets: [0, bytes] } }));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([len, header]);
}

function generate(root: string): void {
  const manifests: Array<[string, string]> = [
    ['package.json', JSON.stringify({ name: 'svc', version: '1.0.0', dependencies: { openai: '^4.0.0' } })],
    ['requirements.txt', 'torch==2.2.0\ntransformers>=4.40\n'],
    [
      '.mcp.json',
      JSON.stringify({
        mcpServers: { fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } },
      }),
    ],
    ['Dockerfile', 'FROM python:3.12\nRUN pip install vllm\n'],
  ];
  let n = 0;
  for (let i = 0; i < MANIFESTS; i++, n++) {
    const dir = path.join(root, `svc${i}`);
    mkdirSync(dir, { recursive: true });
    const [name, text] = manifests[i % manifests.length]!;
    writeFileSync(path.join(dir, name), text.replace('svc', `svc${i}`));
  }
  const chunk = Buffer.alloc(1024 ** 2, 7);
  const perModel = Math.floor(TOTAL_BYTES / MODELS);
  for (let i = 0; i < MODELS; i++, n++) {
    const dir = path.join(root, 'models', `m${i}`);
    mkdirSync(dir, { recursive: true });
    const head = safetensorsHeader(perModel - 8 - 200);
    const fd = openSync(path.join(dir, 'model.safetensors'), 'w');
    writeSync(fd, head);
    chunk.writeUInt32LE(i, 0); // each model different bytes
    for (let left = perModel - head.length; left > 0; left -= chunk.length)
      writeSync(fd, chunk, 0, Math.min(left, chunk.length));
    closeSync(fd);
  }
  for (let i = 0; n < FILES; i++, n++) {
    const dir = path.join(root, 'src', `d${i % 100}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`);
  }
}

function timed(cmd: string, args: string[]): { seconds: number; status: number | null; stderr: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 * 1024 ** 2 });
  return { seconds: Number(process.hrtime.bigint() - t0) / 1e9, status: r.status, stderr: r.stderr };
}

function main(): void {
  const root = mkdtempSync(path.join(tmpdir(), 'risk-scan-bench-'));
  try {
    process.stdout.write(
      `generating ${FILES} files (${MANIFESTS} manifests, ${MODELS} model files, 1 GiB) in ${root}\n`,
    );
    generate(root);
    // warm the page cache once for both contenders alike
    timed('sh', ['-c', `cat $(find ${root} -type f -name '*.safetensors') > /dev/null`]);
    const find = timed('sh', ['-c', `find ${root} -type f -print0 | xargs -0 sha256sum > /dev/null`]);
    const out = path.join(root, '..', `${path.basename(root)}.json`);
    const scan = timed('/usr/bin/time', [
      '-f',
      '%M',
      process.execPath,
      BIN,
      'scan',
      root,
      '--format',
      'json',
      '-o',
      out,
      '--no-progress',
    ]);
    const rssKiB = Number(/(\d+)\s*$/.exec(scan.stderr.trim())?.[1] ?? NaN);
    rmSync(out, { force: true });
    process.stdout.write(
      [
        `find + sha256sum: ${find.seconds.toFixed(2)} s`,
        `risk-scan:        ${scan.seconds.toFixed(2)} s (exit ${scan.status}, peak RSS ${(rssKiB / 1024).toFixed(0)} MiB)`,
        `ratio:            ${(scan.seconds / find.seconds).toFixed(2)} (bound: 2.00)`,
        '',
      ].join('\n'),
    );
  } finally {
    if (!process.argv.includes('--keep')) rmSync(root, { recursive: true, force: true });
  }
}

main();
