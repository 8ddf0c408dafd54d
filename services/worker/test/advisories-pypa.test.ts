import { performance } from 'node:perf_hooks';
import { advisoryFeedCounts } from '@risk/db';
import { currentSlowdown } from '@risk/time-budget';
import { enrichAsset, importAdvisoryFeed, loadDefaultFeeds, readFeedPath, shippedPypaArchive } from '../src';
import { createWorkerHarness, type WorkerHarness } from './harness';
import { scaledByLoad } from '@risk/testing';

// docs/advisories.md: the shipped PyPA feed (2,661 OSV records) loaded as on first start, then matched on real
// pinned versions through the enrichment job (the one suite that imports the whole feed; others use fixtures)
describe('the PyPA advisory feed', () => {
  let h: WorkerHarness;
  const measured: Record<string, number> = {};

  beforeAll(async () => {
    h = await createWorkerHarness('advpypa');
    const t0 = performance.now();
    const results = await loadDefaultFeeds(h.deps);
    measured.import_ms = Math.round(performance.now() - t0);
    measured.pypa_inserted = results.find((r) => r.source === 'pypa')?.inserted ?? 0;
    const size = await h.ctx.db.pool.query<{ bytes: string }>(
      `SELECT (pg_total_relation_size('advisories') + pg_total_relation_size('advisory_packages'))::text AS bytes`,
    );
    measured.database_bytes = Number(size.rows[0]!.bytes);
  }, scaledByLoad(120_000));
  afterAll(async () => {
    // the numbers docs/advisories.md quotes ("Performance")
    process.stdout.write(`advisories: ${JSON.stringify(measured)}\n`);
    await h.close();
  });

  it('loads every record of the shipped feed, withdrawn ones included, and the curated feed', async () => {
    const counts = await advisoryFeedCounts(h.ctx.db.pool);
    const pypa = counts.find((c) => c.source === 'pypa');
    expect(pypa?.advisories).toBeGreaterThanOrEqual(2600);
    expect(pypa?.withdrawn).toBeGreaterThanOrEqual(5);
    expect(counts.find((c) => c.source === 'curated')?.advisories).toBe(33);
    expect(measured.pypa_inserted).toBe(pypa?.advisories);
    expect(measured.import_ms).toBeLessThan(60_000 * currentSlowdown());
  });

  it('a re-import changes nothing and re-enriches nothing', async () => {
    const again = await importAdvisoryFeed(h.deps, { source: 'pypa', files: await readFeedPath(shippedPypaArchive()) });
    expect(again).toMatchObject({ inserted: 0, updated: 0, reenrichments: 0, invalid: 0 });
    expect(again.unchanged).toBeGreaterThanOrEqual(2600);
    // the first start's check: the feed is there, so a restart does not import it again
    const restart = await loadDefaultFeeds(h.deps);
    expect(restart.map((r) => [r.source, r.inserted, r.updated])).toEqual([['curated', 0, 0]]);
  });

  async function r23(fp: string, manifest: string) {
    const res = await h.submit({ fingerprint: fp, asset_type: 'package', raw_manifest: manifest });
    expect(res.status).toBe(202);
    const asset = await h.ctx.db.prisma.asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
    });
    const out = await enrichAsset(h.deps, { livemode: true, fingerprint: fp, digest: asset.latest_digest });
    expect(out.outcome).toBe('enriched');
    if (out.outcome === 'enriched') measured[`advisory_lookup_ms_${fp}`] = Math.round(out.timings.advisories_ms);
    const findings = await h.ctx.db.prisma.finding.findMany({
      where: { livemode: true, fingerprint: fp, rule_id: 'R23' },
    });
    return findings.map((f) => ({
      pkg: (f.evidence as { package: string }).package,
      ids: [...f.cve_ids],
      evidence: f.evidence as Record<string, unknown>,
    }));
  }

  it('matches real pins in PEP 440 order: pre-releases, local versions, last_affected, versions lists', async () => {
    const found = await r23(
      'pypi:affected-pins',
      [
        'salt==2018.3.0rc1', // PYSEC-2021-57: introduced 2018.3.0rc1, fixed 2019.2.0rc1
        'py==1.11.0', // PYSEC-2022-42969: last_affected 1.11.0
        'torch==1.13.0+cpu', // PYSEC-2022-43015 / CVE-2022-45907: fixed 1.13.1 (local version of 1.13.0)
        'gratient==0.5', // PYSEC-2024-1: only an explicit versions list
        'invenio-previewer==1.0.0a11', // PYSEC-2019-26: fixed 1.0.0a12
        'redis==0.6.0', // PYSEC-2023-73: withdrawn
      ].join('\n'),
    );
    const ids = (pkg: string) => found.filter((f) => f.pkg === pkg).flatMap((f) => f.ids);
    expect(ids('salt')).toContain('CVE-2021-3197');
    expect(ids('py')).toContain('CVE-2022-42969');
    // the curated record and PyPA's of one CVE make one finding (the curated one, reviewed severity)
    expect(found.filter((f) => f.ids.includes('CVE-2022-45907'))).toHaveLength(1);
    expect(found.find((f) => f.ids.includes('CVE-2022-45907'))?.evidence).toMatchObject({
      advisory_id: 'CVE-2022-45907',
      references: expect.arrayContaining(['/v1/advisories/CVE-2022-45907', '/v1/advisories/PYSEC-2022-43015']),
    });
    expect(ids('gratient')).toEqual(['PYSEC-2024-1']);
    expect(ids('invenio-previewer').length).toBeGreaterThan(0);
    expect(found.filter((f) => f.pkg === 'redis')).toEqual([]);
  });

  it('does not match past the fix: post-releases, epochs, pre-releases of the fix, local versions of the fix', async () => {
    const found = await r23(
      'pypi:fixed-pins',
      ['salt==2019.2.0rc1', 'py==1.11.0.post1', 'torch==1!0.1', 'invenio-previewer==1.0.0a12', 'gratient==0.6'].join(
        '\n',
      ),
    );
    expect(found.filter((f) => f.ids.includes('CVE-2021-3197'))).toEqual([]);
    expect(found.filter((f) => f.pkg === 'py' || f.pkg === 'torch' || f.pkg === 'gratient')).toEqual([]);
    const torchLocal = await r23('pypi:torch-local-fix', 'torch==1.13.1+cu117');
    expect(torchLocal.filter((f) => f.ids.includes('CVE-2022-45907'))).toEqual([]);
  });
});
