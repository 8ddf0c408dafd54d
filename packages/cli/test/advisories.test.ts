import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { createTestContext, type TestContext } from '@risk/testing';
import { CliError, runCli } from '../src';
import { progressBar } from '../src/advisories';

// `pnpm cli advisories import|sync` (docs/advisories.md "Import"): the sync path against a local HTTP server
const record = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  modified: '2026-01-01T00:00:00Z',
  aliases: [`CVE-2099-${id.slice(-4)}`],
  affected: [
    {
      package: { ecosystem: 'PyPI', name },
      ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '2.0' }] }],
    },
  ],
  ...extra,
});
const ZIP = zipSync({
  'PyPI/LOCAL-0001.json': strToU8(JSON.stringify(record('LOCAL-0001', 'alpha'))),
  'PyPI/LOCAL-0002.yaml': strToU8(
    'id: LOCAL-0002\nmodified: "2026-01-01T00:00:00Z"\naffected:\n  - package: {ecosystem: PyPI, name: beta}\n    versions: ["1.0"]\n',
  ),
  'README.txt': strToU8('not a record'),
});

describe('pnpm cli advisories', () => {
  let ctx: TestContext;
  let server: Server;
  let base: string;
  let dir: string;
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };

  beforeAll(async () => {
    ctx = await createTestContext('cliadv');
    dir = mkdtempSync(join(tmpdir(), 'cli-osv-'));
    server = createServer((req, res) => {
      if (req.url === '/PyPI/all.zip') {
        res.writeHead(200, { 'content-type': 'application/zip' });
        res.end(Buffer.from(ZIP));
      } else if (req.url === '/one.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(record('LOCAL-0003', 'gamma')));
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
    await ctx.close();
  });
  beforeEach(() => {
    out.length = 0;
    err.length = 0;
  });

  it('sync --url loads a zip from a server, with a progress bar and the counts as JSON', async () => {
    await runCli(['advisories', 'sync', '--url', `${base}/PyPI/all.zip`, '--source', 'local-osv'], ctx.config, io);
    expect(JSON.parse(out[0]!)).toMatchObject({ source: 'local-osv', files: 2, records: 2, inserted: 2, invalid: 0 });
    expect(err).toContain('advisories [##############################] 2/2');
    const rows = await ctx.db.prisma.advisory.findMany({ orderBy: { id: 'asc' }, include: { packages: true } });
    expect(rows.map((r) => [r.id, r.source, r.packages.map((p) => `${p.ecosystem}:${p.name}`)])).toEqual([
      ['LOCAL-0001', 'local-osv', ['pypi:alpha']],
      ['LOCAL-0002', 'local-osv', ['pypi:beta']],
    ]);
    out.length = 0;
    // idempotent
    await runCli(['advisories', 'sync', '--url', `${base}/PyPI/all.zip`, '--source', 'local-osv'], ctx.config, io);
    expect(JSON.parse(out[0]!)).toMatchObject({ inserted: 0, updated: 0, unchanged: 2 });
  });

  it('sync of one record file; the feed name defaults to the file name', async () => {
    await runCli(['advisories', 'sync', '--url', `${base}/one.json`], ctx.config, io);
    expect(JSON.parse(out[0]!)).toMatchObject({ source: 'one', inserted: 1 });
  });

  it('import of a zip file and of a directory; a changed record is an update', async () => {
    writeFileSync(join(dir, 'all.zip'), ZIP);
    await runCli(['advisories', 'import', join(dir, 'all.zip'), '--source', 'local-osv'], ctx.config, io);
    expect(JSON.parse(out[0]!)).toMatchObject({ inserted: 0, unchanged: 2 });
    out.length = 0;
    writeFileSync(join(dir, 'LOCAL-0001.json'), JSON.stringify(record('LOCAL-0001', 'alpha', { summary: 'changed' })));
    await runCli(['advisories', 'import', dir, '--source', 'local-osv'], ctx.config, io);
    // the directory holds the zip too: only .json/.yaml files are records
    expect(JSON.parse(out[0]!)).toMatchObject({ files: 1, updated: 1 });
  });

  it('refuses bad input with a message and changes nothing', async () => {
    const count = await ctx.db.prisma.advisory.count();
    await expect(runCli(['advisories', 'sync', '--url', `${base}/missing.zip`], ctx.config, io)).rejects.toThrow(
      /answered 404/,
    );
    await expect(runCli(['advisories', 'sync', '--url', 'file:///etc/passwd'], ctx.config, io)).rejects.toThrow(
      CliError,
    );
    await expect(runCli(['advisories', 'import', join(dir, 'nope')], ctx.config, io)).rejects.toThrow(/cannot read/);
    await expect(runCli(['advisories', 'import', dir, '--source', 'Bad Name'], ctx.config, io)).rejects.toThrow(
      /--source takes/,
    );
    await expect(runCli(['advisories', 'frobnicate'], ctx.config, io)).rejects.toThrow(/unknown advisories command/);
    expect(await ctx.db.prisma.advisory.count()).toBe(count);
  });

  it('draws the bar proportionally', () => {
    expect(progressBar(0, 10, 10)).toBe('[----------] 0/10');
    expect(progressBar(5, 10, 10)).toBe('[#####-----] 5/10');
    expect(progressBar(0, 0, 4)).toBe('[####] 0/0');
  });
});
