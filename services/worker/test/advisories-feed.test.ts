import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { Client } from 'pg';
import { importAdvisoryFeed, readFeedPath, startWorker, zipFeedFiles, type RunningWorker } from '../src';
import { analysisPoolFor } from '../src/analysis/pool';
import { createWorkerHarness, waitFor, type WorkerHarness } from './harness';

// docs/advisories.md: small OSV fixtures for the paths the full PyPA suite does not take — a new advisory re-enriches
// the assets of its package, a withdrawn one is retracted, and feeds come as YAML, JSON, trees and zips
const PKG = 'zzfake-ai-lib';
const yamlRecord = (extra = '') => `id: FAKE-2026-1
modified: "2026-01-02T00:00:00Z"
aliases: [CVE-2099-0001]
summary: Remote code execution in zzfake-ai-lib
affected:
  - package: { ecosystem: PyPI, name: ZZFake_AI.Lib }
    ranges:
      - type: ECOSYSTEM
        events: [{ introduced: "0" }, { fixed: "1.1.0" }]
database_specific: { severity: CRITICAL }
${extra}`;
const jsonRecord = {
  id: 'FAKE-2026-2',
  modified: '2026-01-02T00:00:00Z',
  affected: [{ package: { ecosystem: 'npm', name: 'zzfake-npm' }, versions: ['1.0.0'] }],
};

describe('advisory feeds (fixtures)', () => {
  let h: WorkerHarness;
  let worker: RunningWorker | undefined;
  let dir: string;

  beforeAll(async () => {
    h = await createWorkerHarness('advfeed');
    dir = mkdtempSync(join(tmpdir(), 'osv-'));
  });
  afterAll(async () => {
    await worker?.close();
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const r23 = async (fp: string) =>
    (await h.ctx.db.prisma.finding.findMany({ where: { livemode: true, fingerprint: fp, rule_id: 'R23' } })).flatMap(
      (f) => f.cve_ids,
    );

  it('reads a YAML file, a JSON file, a tree and a zip alike', async () => {
    mkdirSync(join(dir, 'tree', 'PyPI'), { recursive: true });
    writeFileSync(join(dir, 'tree', 'PyPI', 'FAKE-2026-1.yaml'), yamlRecord());
    writeFileSync(join(dir, 'tree', 'FAKE-2026-2.json'), JSON.stringify(jsonRecord));
    writeFileSync(join(dir, 'tree', 'notes.txt'), 'not a record');
    writeFileSync(
      join(dir, 'all.zip'),
      zipSync({ 'FAKE-2026-1.yaml': strToU8(yamlRecord()), 'FAKE-2026-2.json': strToU8(JSON.stringify(jsonRecord)) }),
    );
    const tree = await readFeedPath(join(dir, 'tree'));
    const zip = await readFeedPath(join(dir, 'all.zip'));
    const one = await readFeedPath(join(dir, 'tree', 'PyPI', 'FAKE-2026-1.yaml'));
    expect(tree.map((f) => f.name)).toEqual(['FAKE-2026-2.json', join('PyPI', 'FAKE-2026-1.yaml')]);
    expect(zip.map((f) => f.name)).toEqual(['FAKE-2026-1.yaml', 'FAKE-2026-2.json']);
    expect(one).toHaveLength(1);
    // a zip bomb's declared size is refused before it is inflated
    const bomb = zipSync({ 'a.json': new Uint8Array(9 * 1024 * 1024) }, { level: 9 });
    expect(zipFeedFiles(bomb)).toEqual([]);
  });

  it('a new advisory re-enriches the assets of its package; a withdrawal retracts it', async () => {
    worker = startWorker(h.deps, { maintenance: false });
    const fp = 'pypi:uses-zzfake';
    const res = await h.submit({
      fingerprint: fp,
      asset_type: 'package',
      raw_manifest: `${PKG}==1.0.3\nrequests==2.32.3\n`,
    });
    expect(res.status).toBe(202);
    await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched');
    expect(await r23(fp)).toEqual([]);

    const added = await importAdvisoryFeed(h.deps, {
      source: 'fixture',
      files: await readFeedPath(join(dir, 'all.zip')),
    });
    expect(added).toMatchObject({ inserted: 2, updated: 0, invalid: 0, reenrichments: 1 });
    const status = await h.ctx.db.prisma.asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
    });
    expect(status.enrichment_status).toBe('stale');
    await waitFor('the new advisory in the findings', async () => (await r23(fp)).includes('CVE-2099-0001'), 20_000);
    const finding = await h.ctx.db.prisma.finding.findFirstOrThrow({ where: { fingerprint: fp, rule_id: 'R23' } });
    // CRITICAL on a dependency is capped at high (docs/enrichment.md R23)
    expect(finding).toMatchObject({ severity: 'high' });
    expect(finding.evidence).toMatchObject({
      advisory_id: 'FAKE-2026-1',
      references: ['/v1/advisories/FAKE-2026-1', '/v1/advisories/CVE-2099-0001'],
    });

    // the same feed again: nothing changes, nothing is queued
    const same = await importAdvisoryFeed(h.deps, {
      source: 'fixture',
      files: await readFeedPath(join(dir, 'all.zip')),
    });
    expect(same).toMatchObject({ inserted: 0, updated: 0, unchanged: 2, reenrichments: 0 });

    // withdrawn: kept (the API still answers for it), never matched, the asset re-enriched without it
    await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched');
    const withdrawn = await importAdvisoryFeed(h.deps, {
      source: 'fixture',
      files: [{ name: 'w.yaml', text: yamlRecord('withdrawn: "2026-02-01T00:00:00Z"\n') }],
    });
    expect(withdrawn).toMatchObject({ updated: 1, withdrawn: 1, reenrichments: 1 });
    await waitFor('the withdrawn advisory gone from the findings', async () => (await r23(fp)).length === 0, 20_000);
    const row = await h.ctx.db.prisma.advisory.findUniqueOrThrow({ where: { id: 'FAKE-2026-1' } });
    expect(row.withdrawn?.toISOString()).toBe('2026-02-01T00:00:00.000Z');
  });

  it('one analysis task per job, two when the database holds advisories for its packages', async () => {
    // the feed of the test above is loaded: FAKE-2026-1 (withdrawn, still held) affects PKG; nothing affects the other
    worker ??= startWorker(h.deps, { maintenance: false });
    const pool = analysisPoolFor(h.deps.config);
    const run = jest.spyOn(pool, 'run');
    try {
      const held = 'pypi:held-advisories';
      const none = 'pypi:no-advisories';
      for (const [fp, manifest] of [
        [held, `${PKG}==1.0.3\n`],
        [none, 'zzfake-unknown-lib==1.0.0\n'],
      ] as const) {
        expect((await h.submit({ fingerprint: fp, asset_type: 'package', raw_manifest: manifest })).status).toBe(202);
        await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched');
      }
      const entriesFor = (fp: string) =>
        run.mock.calls
          .filter((c) => (c[1][0] as Array<{ fingerprint: string }>)[0]!.fingerprint === fp)
          .map((c) => c[0]);
      expect(entriesFor(none)).toEqual(['packages_and_enrich']);
      expect(entriesFor(held)).toEqual(['packages_and_enrich', 'enrich']);
      // the withdrawn record held by the database is applied (never matched), as the engine alone would not know
      expect(await r23(held)).toEqual([]);
    } finally {
      run.mockRestore();
    }
  });

  it('no advisory look-up for manifests without packages on an asset with none recorded; recorded ones are removed', async () => {
    worker ??= startWorker(h.deps, { maintenance: false });
    const query = jest.spyOn(Client.prototype, 'query');
    const lookupsFor = (fp: string) =>
      query.mock.calls.filter((c) => typeof c[0] === 'string' && c[0].includes('EXECUTE ea_lookup') && c[0].includes(fp))
        .length;
    const recorded = async (fp: string) =>
      (await h.ctx.db.pool.query(`SELECT name FROM asset_packages WHERE livemode AND fingerprint = $1`, [fp])).rows;
    try {
      const card = 'hf:no-packages-card';
      expect(
        (await h.submit({ fingerprint: card, asset_type: 'model', raw_manifest: '# A model card\n\nNo dependencies.\n' }))
          .status,
      ).toBe(202);
      await h.waitForAsset(card, (a) => a.enrichment_status === 'enriched');
      expect(lookupsFor(card)).toBe(0);

      const pkg = 'pypi:dropped-packages';
      expect((await h.submit({ fingerprint: pkg, asset_type: 'package', raw_manifest: `${PKG}==1.0.3\n` })).status).toBe(
        202,
      );
      await h.waitForAsset(pkg, (a) => a.enrichment_status === 'enriched');
      expect(lookupsFor(pkg)).toBe(1);
      expect(await recorded(pkg)).toEqual([{ name: 'zzfake-ai-lib' }]);
      // the next version names no package: its look-up still runs, and removes the recorded one
      expect((await h.submit({ fingerprint: pkg, asset_type: 'package', raw_manifest: '# no requirements\n' })).status).toBe(
        202,
      );
      await waitFor('the recorded package removed', async () => (await recorded(pkg)).length === 0, 20_000);
      await h.waitForAsset(pkg, (a) => a.enrichment_status === 'enriched');
      expect(lookupsFor(pkg)).toBe(2);
    } finally {
      query.mockRestore();
    }
  });

  it('hostile records are counted and named, never stored; a bad feed name is refused', async () => {
    const r = await importAdvisoryFeed(h.deps, {
      source: 'fixture-bad',
      files: [
        { name: 'a.json', text: '{"id":"no date"}' },
        { name: 'b.json', text: '{oops' },
        { name: 'c.json', text: JSON.stringify({ id: 'NUL-1', modified: '2026-01-01', summary: 'a\u0000b' }) },
        { name: 'd.yaml', text: 'a: &a [*a, *a]\n' },
      ],
    });
    expect(r).toMatchObject({ inserted: 0, invalid: 4 });
    expect(r.errors.join('\n')).toMatch(/b\.json/);
    expect(await h.ctx.db.prisma.advisory.count({ where: { source: 'fixture-bad' } })).toBe(0);
    await expect(importAdvisoryFeed(h.deps, { source: 'Bad Name', files: [] })).rejects.toThrow(/bad feed name/);
  });
});
