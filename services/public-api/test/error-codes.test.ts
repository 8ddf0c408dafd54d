import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES } from '@risk/common/errors';

// docs/errors.md against the code: every code some source file throws has a row with the status and
// type of ERROR_CODES, and a documented code nothing throws says it is reserved.
const ROOT = join(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'generated' ? [] : sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

const srcDirs = ['packages', 'services'].flatMap((top) =>
  readdirSync(join(ROOT, top)).flatMap((pkg) => {
    const src = join(ROOT, top, pkg, 'src');
    try {
      return sourceFiles(src);
    } catch {
      return [];
    }
  }),
);

/** Codes passed to `new ApiError('…'` anywhere in the services' and packages' sources. */
const thrown = new Set(
  srcDirs.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/new ApiError\(\s*'([a-z_]+)'/g)].map((m) => m[1]!)),
);

/** Rows of the doc's code table: code → { status, type, when } (a row may name several codes). */
const doc = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8');
const rows = new Map<string, { status: string; type: string; when: string }>();
for (const line of doc.split('\n')) {
  const cells = line.split('|').map((c) => c.trim());
  if (cells.length < 6 || !/^[a-z_]+(, [a-z_]+)*$/.test(cells[1]!)) continue;
  for (const code of cells[1]!.split(', ')) rows.set(code, { status: cells[2]!, type: cells[3]!, when: cells[4]! });
}

test('the scan finds the codes (guards against a broken pattern)', () => {
  expect(srcDirs.length).toBeGreaterThan(50);
  expect([...thrown]).toEqual(
    expect.arrayContaining([
      'parameter_invalid',
      'resource_missing',
      'asset_not_enriched',
      'api_key_missing',
      'request_too_large',
    ]),
  );
});

test('every code the sources throw is documented with its status and type', () => {
  const problems: string[] = [];
  for (const code of thrown) {
    const row = rows.get(code);
    const entry = ERROR_CODES[code as keyof typeof ERROR_CODES];
    if (!entry) problems.push(`${code}: not in ERROR_CODES`);
    else if (!row) problems.push(`${code}: no row in docs/errors.md`);
    else if (!row.status.startsWith(String(entry.status)) || !row.type.startsWith(entry.type))
      problems.push(`${code}: doc says ${row.status} ${row.type}, code ${entry.status} ${entry.type}`);
  }
  expect(problems).toEqual([]);
});

test('every documented code exists; those nothing throws are marked reserved', () => {
  expect([...rows.keys()].filter((code) => !(code in ERROR_CODES))).toEqual([]);
  const unused = [...rows.keys()].filter((code) => !thrown.has(code));
  expect(unused.filter((code) => !rows.get(code)!.when.startsWith('reserved'))).toEqual([]);
});
