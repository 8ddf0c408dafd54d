import request from 'supertest';
import { createHarness, enrichLikeWorker, postSignal, signalBody, type Harness } from './harness';

let h: Harness;
const auth = () => ({ Authorization: `Bearer ${h.key}` });
beforeAll(async () => {
  h = await createHarness('assets-subresources');
});
afterAll(() => h.close());

describe('findings, AI-BOM and threats of an asset', () => {
  let enrichedFp: string;
  let pendingFp: string;
  let threatByFp: string;
  let threatByCve: string;

  beforeAll(async () => {
    const prisma = h.ctx.db.prisma;
    // a threat listing the fingerprint, one matching by CVE, one for another asset type, one for another fingerprint
    const enriched = signalBody(h.orgId, { asset_type: 'mcp_server' });
    enrichedFp = enriched.fingerprint as string;
    await postSignal(h, enriched);
    const base = { livemode: true, created_by_org: 'org_other', severity: 'high', risk_penalty: 10 };
    threatByFp = 'thr_0000000000fp000000000000000';
    threatByCve = 'thr_0000000000cve00000000000000';
    await prisma.threat.createMany({
      data: [
        {
          ...base,
          id: threatByFp,
          category: 'malicious_package',
          title: 'listed',
          fingerprints: [enrichedFp],
          affected_asset_types: [],
        },
        {
          ...base,
          id: threatByCve,
          category: 'vulnerable_dependency',
          title: 'by cve',
          cve_id: 'CVE-2025-53110',
          affected_asset_types: ['mcp_server'],
        },
        {
          ...base,
          id: 'thr_0000000000type0000000000000',
          category: 'other',
          title: 'wrong type',
          fingerprints: [enrichedFp],
          affected_asset_types: ['model'],
        },
        {
          ...base,
          id: 'thr_0000000000else0000000000000',
          category: 'other',
          title: 'other asset',
          fingerprints: ['someone-else'],
        },
        {
          ...base,
          id: 'thr_0000000000test0000000000000',
          livemode: false,
          category: 'other',
          title: 'test mode',
          fingerprints: [enrichedFp],
        },
      ],
    });
    await enrichLikeWorker(h, enrichedFp, {
      threats: [
        {
          id: threatByFp,
          title: 'listed',
          category: 'malicious_package',
          severity: 'high',
          risk_penalty: 10,
          cve_id: null,
          attack_techniques: [],
          remediation: null,
        },
      ],
    });
    // give one finding the CVE the second threat names (the engine's CVE rules need a vulnerable version)
    const f = await prisma.finding.findFirstOrThrow({ where: { fingerprint: enrichedFp } });
    await prisma.finding.update({ where: { id: f.id }, data: { cve_ids: ['CVE-2025-53110'] } });
    const pending = signalBody(h.orgId);
    pendingFp = pending.fingerprint as string;
    await postSignal(h, pending);
  });

  const path = (fp: string, suffix: string) => `/v1/assets/${encodeURIComponent(fp)}/${suffix}`;

  test('findings come in a list envelope; expand[]=threats inlines the related threats', async () => {
    const res = await request(h.app).get(path(enrichedFp, 'findings')).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'list',
      has_more: false,
      url: path(enrichedFp, 'findings'),
      next_cursor: null,
    });
    expect(res.body.data.length).toBeGreaterThan(0);
    const withThreat = res.body.data.find((f: { threats: string[] }) => f.threats.length > 0);
    expect(withThreat.threats).toEqual([threatByFp]);
    const expanded = await request(h.app)
      .get(`${path(enrichedFp, 'findings')}?expand[]=threats`)
      .set(auth());
    expect(expanded.status).toBe(200);
    const inlined = expanded.body.data.find((f: { id: string }) => f.id === withThreat.id);
    expect(inlined.threats).toEqual([expect.objectContaining({ object: 'threat', id: threatByFp, title: 'listed' })]);
  });

  test('findings page with limit and cursors', async () => {
    const all = (
      await request(h.app)
        .get(`${path(enrichedFp, 'findings')}?limit=100`)
        .set(auth())
    ).body.data;
    const first = await request(h.app)
      .get(`${path(enrichedFp, 'findings')}?limit=1`)
      .set(auth());
    expect(first.body.data).toHaveLength(1);
    expect(first.body.has_more).toBe(all.length > 1);
    expect(first.body.data[0].id).toBe(all[0].id);
  });

  test('an unsupported expand on findings is 400', async () => {
    const res = await request(h.app)
      .get(`${path(enrichedFp, 'findings')}?expand[]=aibom`)
      .set(auth());
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('expand');
  });

  test.each([
    ['json', 'application/json'],
    ['spdx_json', 'application/spdx+json'],
    ['spdx_tv', 'text/plain'],
    ['cyclonedx_json', 'application/vnd.cyclonedx+json'],
  ])('AI-BOM format %s is served as %s', async (format, type) => {
    const res = await request(h.app)
      .get(`${path(enrichedFp, 'aibom')}?format=${format}`)
      .set(auth())
      .buffer(true)
      .parse((r, cb) => {
        let data = '';
        r.on('data', (c: Buffer) => (data += c.toString()));
        r.on('end', () => cb(null, data));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain(type);
    const text = res.body as string;
    if (format === 'json')
      expect(JSON.parse(text)).toMatchObject({ object: 'aibom', bom_version: 1, spdx: { spdxVersion: 'SPDX-2.3' } });
    if (format === 'spdx_json')
      expect(JSON.parse(text)).toMatchObject({ spdxVersion: 'SPDX-2.3', SPDXID: 'SPDXRef-DOCUMENT' });
    if (format === 'spdx_tv') expect(text).toMatch(/^SPDXVersion: SPDX-2\.3\nDataLicense: CC0-1\.0\n/);
    if (format === 'cyclonedx_json')
      expect(JSON.parse(text)).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6' });
  });

  test('json is the default AI-BOM format; another format is 400 naming format', async () => {
    const def = await request(h.app).get(path(enrichedFp, 'aibom')).set(auth());
    expect(def.status).toBe(200);
    expect(def.body.object).toBe('aibom');
    const bad = await request(h.app)
      .get(`${path(enrichedFp, 'aibom')}?format=xml`)
      .set(auth());
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'format' });
  });

  test('threats lists those naming the fingerprint or a finding CVE, of a matching asset type and mode', async () => {
    const res = await request(h.app).get(path(enrichedFp, 'threats')).set(auth());
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.data.map((t: { id: string }) => t.id).sort()).toEqual([threatByCve, threatByFp].sort());
  });

  test.each(['findings', 'aibom', 'threats'])('%s of a pending asset is 404 asset_not_enriched', async (suffix) => {
    const res = await request(h.app).get(path(pendingFp, suffix)).set(auth());
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'asset_not_enriched' });
  });

  test.each(['findings', 'aibom', 'threats'])('%s of a failed asset is 404 asset_not_enriched', async (suffix) => {
    const failed = signalBody(h.orgId);
    await postSignal(h, failed);
    await h.ctx.db.prisma.asset.update({
      where: { livemode_fingerprint: { livemode: true, fingerprint: failed.fingerprint as string } },
      data: { enrichment_status: 'failed' },
    });
    const res = await request(h.app)
      .get(path(failed.fingerprint as string, suffix))
      .set(auth());
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('asset_not_enriched');
  });

  test('a stale asset still serves its last good findings and AI-BOM', async () => {
    const changed = { ...signalBody(h.orgId), fingerprint: enrichedFp, version: '9.9.9' };
    const res = await postSignal(h, changed);
    expect(res.body.enrichment).toEqual({ status: 'queued', reason: 'content_changed' });
    const asset = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent(enrichedFp)}`)
      .set(auth());
    expect(asset.body.enrichment_status).toBe('stale');
    expect((await request(h.app).get(path(enrichedFp, 'findings')).set(auth())).status).toBe(200);
    expect((await request(h.app).get(path(enrichedFp, 'aibom')).set(auth())).status).toBe(200);
  });

  test.each(['findings', 'aibom', 'threats'])('%s of an unknown asset is 404 resource_missing', async (suffix) => {
    const res = await request(h.app).get(path('no-such-asset', suffix)).set(auth());
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('resource_missing');
  });
});
