import request from 'supertest';
import { createHarness, enrichLikeWorker, postSignal, signalBody, type Harness } from './harness';

let h: Harness;
const auth = () => ({ Authorization: `Bearer ${h.key}` });
beforeAll(async () => {
  h = await createHarness('assets');
});
afterAll(() => h.close());

describe('GET /v1/assets/{fingerprint}', () => {
  test.each([
    ['slash', 'huggingface.co/meta-llama/Llama-3.1-8B'],
    ['colon', 'sha256:0b3f9e1c'],
    ['at sign', 'npm:@modelcontextprotocol/server-filesystem@2025.7.1'],
    ['spaces and unicode', 'model name ü/x'],
  ])('retrieves a fingerprint holding a %s when URL-encoded', async (_label, fingerprint) => {
    const res = await postSignal(h, signalBody(h.orgId, { fingerprint }));
    expect(res.status).toBe(202);
    const got = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent(fingerprint)}`)
      .set(auth());
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      object: 'asset',
      fingerprint,
      enrichment_status: 'pending',
      findings: null,
      aibom: null,
      signal_count: 1,
    });
  });

  test('a missing asset is 404 resource_missing naming fingerprint', async () => {
    const res = await request(h.app).get('/v1/assets/nope%2Fnope').set(auth());
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'resource_missing', param: 'fingerprint' });
    expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
  });

  test('expands findings and aibom of an enriched asset; unexpanded aibom is the id', async () => {
    const body = signalBody(h.orgId);
    await postSignal(h, body);
    await enrichLikeWorker(h, body.fingerprint as string);
    const plain = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent(body.fingerprint as string)}`)
      .set(auth());
    expect(plain.status).toBe(200);
    expect(plain.body.enrichment_status).toBe('enriched');
    expect(plain.body.findings).toBeNull();
    expect(plain.body.aibom).toMatch(/^bom_/);
    const expanded = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent(body.fingerprint as string)}?expand[]=findings&expand[]=aibom`)
      .set(auth());
    expect(expanded.status).toBe(200);
    expect(Array.isArray(expanded.body.findings)).toBe(true);
    expect(expanded.body.aibom).toMatchObject({ object: 'aibom', id: plain.body.aibom, bom_version: 1 });
  });

  test('an unsupported expand value is 400 naming expand', async () => {
    const body = signalBody(h.orgId);
    await postSignal(h, body);
    const res = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent(body.fingerprint as string)}?expand[]=threats`)
      .set(auth());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param: 'expand' });
  });
});

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

describe('asset sub-resources: cursors and bad parameters', () => {
  let fp: string;
  let otherFp: string;
  let findingIds: string[];
  const path = (f: string, suffix = '') => `/v1/assets/${encodeURIComponent(f)}${suffix}`;
  const get = (url: string) => request(h.app).get(url).set(auth());

  beforeAll(async () => {
    const body = signalBody(h.orgId, { fingerprint: `pkg:npm/@scope/pager@1.0.0#${Date.now()}` });
    fp = body.fingerprint as string;
    await postSignal(h, body);
    await enrichLikeWorker(h, fp);
    const other = signalBody(h.orgId);
    otherFp = other.fingerprint as string;
    await postSignal(h, other);
    await enrichLikeWorker(h, otherFp);
    findingIds = (await get(`${path(fp, '/findings')}?limit=100`)).body.data.map((f: { id: string }) => f.id);
    expect(findingIds.length).toBeGreaterThanOrEqual(2);
    // threats listing the fingerprint, so the asset's threat list has several pages of one
    await h.ctx.db.prisma.threat.createMany({
      data: [1, 2, 3].map((n) => ({
        id: `thr_0000000000pg${n}00000000000000`,
        livemode: true,
        created_by_org: h.orgId,
        category: 'other',
        title: `pager ${n}`,
        severity: 'low',
        fingerprints: [fp],
        created: new Date(Date.now() - n * 1000),
      })),
    });
  });

  test('findings walk forward and back one at a time and see every finding once', async () => {
    const forward: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < findingIds.length + 1; i++) {
      const res = await get(`${path(fp, '/findings')}?limit=1${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      forward.push(...res.body.data.map((f: { id: string }) => f.id));
      if (!res.body.has_more) break;
      cursor = res.body.next_cursor;
    }
    expect(forward).toEqual(findingIds);
    const backward: string[] = [];
    let before = findingIds[findingIds.length - 1]!;
    for (let i = 0; i < findingIds.length; i++) {
      const res = await get(`${path(fp, '/findings')}?limit=1&ending_before=${before}`);
      backward.unshift(...res.body.data.map((f: { id: string }) => f.id));
      if (!res.body.has_more) break;
      before = res.body.data[0].id;
    }
    expect([...backward, findingIds[findingIds.length - 1]]).toEqual(findingIds);
  });

  test("a finding cursor is resolved within its asset: another asset's finding id is an unknown cursor", async () => {
    const foreign = (await get(`${path(otherFp, '/findings')}?limit=1`)).body.data[0].id;
    for (const param of ['starting_after', 'ending_before']) {
      const res = await get(`${path(fp, '/findings')}?${param}=${foreign}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing', param });
      expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
    }
    const both = await get(`${path(fp, '/findings')}?starting_after=${findingIds[0]}&ending_before=${findingIds[1]}`);
    expect(both.body.error).toMatchObject({ code: 'parameters_exclusive' });
  });

  test('asset threats page with both cursors', async () => {
    const all = (await get(path(fp, '/threats'))).body.data.map((t: { id: string }) => t.id);
    expect(all).toEqual([
      'thr_0000000000pg100000000000000',
      'thr_0000000000pg200000000000000',
      'thr_0000000000pg300000000000000',
    ]);
    const first = await get(`${path(fp, '/threats')}?limit=2`);
    expect(first.body).toMatchObject({ has_more: true, next_cursor: all[1], url: path(fp, '/threats') });
    const second = await get(`${path(fp, '/threats')}?limit=2&starting_after=${first.body.next_cursor}`);
    expect(second.body.data.map((t: { id: string }) => t.id)).toEqual([all[2]]);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    const back = await get(`${path(fp, '/threats')}?limit=1&ending_before=${all[2]}`);
    expect(back.body.data.map((t: { id: string }) => t.id)).toEqual([all[1]]);
    expect(back.body.has_more).toBe(true);
    const unknown = await get(`${path(fp, '/threats')}?starting_after=thr_nope`);
    expect(unknown.body.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
  });

  test('expand is given as expand[] or expand, repeats are harmless, and data.<field> is only for lists', async () => {
    const plain = await get(`${path(fp)}?expand=findings`);
    expect(Array.isArray(plain.body.findings)).toBe(true);
    const twice = await get(`${path(fp)}?expand[]=aibom&expand[]=aibom`);
    expect(twice.body.aibom).toMatchObject({ object: 'aibom' });
    const dataForm = await get(`${path(fp)}?expand[]=data.findings`);
    expect(dataForm.status).toBe(400);
    expect(dataForm.body.error).toMatchObject({ code: 'parameter_invalid', param: 'expand' });
  });

  test.each([
    ['an expand on the threats list', '/threats?expand[]=findings', 'parameter_unknown', 'expand'],
    ['an unknown parameter on the AI-BOM', '/aibom?fmt=json', 'parameter_unknown', 'fmt'],
    ['format given twice', '/aibom?format=json&format=spdx_tv', 'parameter_invalid', 'format'],
    ['an empty format', '/aibom?format=', 'parameter_invalid', 'format'],
    ['format cyclonedx (not a format name)', '/aibom?format=cyclonedx', 'parameter_invalid', 'format'],
    ['an unsupported findings expand', '/findings?expand[]=findings', 'parameter_invalid', 'expand'],
    ['a findings limit of 0', '/findings?limit=0', 'parameter_invalid', 'limit'],
    ['a findings limit of 101', '/findings?limit=101', 'parameter_invalid', 'limit'],
    ['a NUL in a findings cursor', '/findings?starting_after=fnd_%00', 'parameter_invalid', 'starting_after'],
    ['a NUL in a threats cursor', '/threats?ending_before=thr_%00', 'parameter_invalid', 'ending_before'],
  ])('%s is 400 in the envelope', async (_label, suffix, code, param) => {
    const res = await get(path(fp, suffix));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
    expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
  });

  test('a fingerprint over 512 characters or with a control character is 400 naming fingerprint', async () => {
    for (const bad of ['x'.repeat(513), 'a\u0001b']) {
      for (const suffix of ['', '/findings', '/aibom', '/threats']) {
        const res = await get(path(bad, suffix));
        expect([suffix, res.status, res.body.error.param]).toEqual([suffix, 400, 'fingerprint']);
      }
    }
  });
});
