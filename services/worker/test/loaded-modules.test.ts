// The worker process loads neither express nor markdown-it (docs/architecture.md "Layering rules"): HTTP code
// lives in @risk/common/http and the docs site in @risk/common/docs-site, which only the APIs import. A child
// process loads every module the worker's entry (src/main.ts) imports, without running main.ts itself (it
// would start the worker), and lists the files node loaded.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { scaledByLoad } from '@risk/testing';

const WORKER_DIR = path.join(__dirname, '..');

const CHILD = `
const path = require('node:path');
const fs = require('node:fs');
const ts = require('typescript');
const main = path.resolve('src/main.ts');
const specs = ts.preProcessFile(fs.readFileSync(main, 'utf8'), true, true).importedFiles.map((f) => f.fileName);
for (const s of specs) require(s.startsWith('.') ? path.resolve('src', s) : require.resolve(s, { paths: [path.dirname(main)] }));
process.stdout.write(JSON.stringify({ imports: specs, loaded: Object.keys(require.cache) }));
`;

/** The npm package a loaded file belongs to (the last node_modules segment), or null for our own sources. */
function packageOf(file: string): string | null {
  const m = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
  return m ? m[1]! : null;
}

describe('the worker process', () => {
  let imports: string[];
  let packages: Set<string>;

  beforeAll(() => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', CHILD], {
      cwd: WORKER_DIR,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
      maxBuffer: 64 * 1024 * 1024,
    });
    const parsed = JSON.parse(out) as { imports: string[]; loaded: string[] };
    imports = parsed.imports;
    packages = new Set(parsed.loaded.map(packageOf).filter((p): p is string => p !== null));
  }, scaledByLoad(60_000));

  it('loads its entry graph (the check sees real modules)', () => {
    expect(imports).toEqual(expect.arrayContaining(['@risk/db', './worker']));
    // the worker's own dependencies are there, so an empty list cannot pass the checks below
    expect([...packages]).toEqual(expect.arrayContaining(['bullmq', 'ioredis', 'winston', 'pg']));
  });

  it('loads neither express nor markdown-it', () => {
    expect([...packages].filter((p) => p === 'express' || p === 'markdown-it' || p === 'swagger-ui-dist')).toEqual([]);
  });
});
