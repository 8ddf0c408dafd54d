import { createHash } from 'node:crypto';
import request from 'supertest';
import { upsertAdvisories, type AdvisoryRow } from '@risk/db';
import { CURATED_OSV_RECORDS, normalizeOsv, packageNameKey } from '@risk/enrichment';
import { createHarness, enrichLikeWorker, postJson, postSignal, signalBody, type Harness } from './harness';

// GET /v1/advisories/{id} and /v1/attack-techniques (docs/advisories.md "API"); the feed rows are written with the
// store the worker's import uses (packages/db/src/stores/advisories-store.ts)
let h: Harness;
let noAssetsKey: string;
const get = (path: string, key = h.key) => request(h.app).get(path).set('Authorization', `Bearer ${key}`);
const enc = encodeURIComponent;

function row(osv: unknown): AdvisoryRow {
  const n = normalizeOsv(osv);
  if (!n.ok) throw new Error(n.error);
  const r = n.record;
  return {
    ...r,
    osv,
    content_hash: createHash('sha256').update(JSON.stringify(osv)).digest('hex'),
    packages: r.affected.map((a) => ({ ecosystem: a.ecosystem, name: packageNameKey(a.ecosystem, a.name) })),
  };
}
const PYSEC = {
  id: 'PYSEC-2022-43015',
  modified: '2023-05-04T03:49:48.383740Z',
  published: '2022-11-26T02:15:00Z',
  aliases: ['CVE-2022-45907'],
  details: 'In PyTorch before trunk/89695, torch.jit.annotations.parse_type_line can cause arbitrary code execution.',
  affected: [
    {
      package: { name: 'torch', ecosystem: 'PyPI' },
      ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.13.1' }] }],
    },
  ],
  references: [{ type: 'REPORT', url: 'https://github.com/pytorch/pytorch/issues/88868' }],
};

beforeAll(async () => {
  h = await createHarness('advisories');
  noAssetsKey = await h.mintKey({ scopes: ['threats:read'] });
  await upsertAdvisories(h.ctx.db.pool, { source: 'curated', rows: CURATED_OSV_RECORDS.map(row) });
  await upsertAdvisories(h.ctx.db.pool, {
    source: 'pypa',
    rows: [row(PYSEC), row({ ...PYSEC, id: 'PYSEC-2099-1', aliases: [], withdrawn: '2024-01-01T00:00:00Z' })],
  });
});
afterAll(() => h.close());

describe('GET /v1/advisories/{id}', () => {
  test('by id: the OSV record, its feed, severity and dates; `related` names the other feed on the same CVE', async () => {
    const res = await get('/v1/advisories/CVE-2022-45907');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'advisory',
      id: 'CVE-2022-45907',
      source: 'curated',
      severity: 'critical',
      withdrawn: null,
      related: ['PYSEC-2022-43015'],
      url: '/v1/advisories/CVE-2022-45907',
      affected: [{ ecosystem: 'pypi', name: 'torch', versions: [] }],
    });
    expect(res.body.osv).toMatchObject({ id: 'CVE-2022-45907', schema_version: '1.6.0' });
  });

  test('by alias (GHSA, PYSEC) and withdrawn records', async () => {
    const ghsa = await get('/v1/advisories/GHSA-fprp-p869-w6q2');
    expect(ghsa.status).toBe(200);
    expect(ghsa.body).toMatchObject({ id: 'CVE-2023-29374', aliases: expect.arrayContaining(['PYSEC-2023-18']) });
    const pysec = await get('/v1/advisories/PYSEC-2022-43015');
    expect(pysec.body).toMatchObject({
      id: 'PYSEC-2022-43015',
      source: 'pypa',
      severity: null,
      published: 1669428900,
      references: ['https://github.com/pytorch/pytorch/issues/88868'],
    });
    const withdrawn = await get('/v1/advisories/PYSEC-2099-1');
    expect(withdrawn.body.withdrawn).toBe(1704067200);
  });

  test('404 for an unknown id, 400 for a malformed one, 401/403 without a key or scope', async () => {
    const missing = await get('/v1/advisories/CVE-1999-0000');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'resource_missing', param: 'advisory_id' });
    for (const bad of ['bad id', '../etc', 'x'.repeat(101), '%00', "CVE-1' OR '1'='1"]) {
      const res = await get(`/v1/advisories/${enc(bad)}`);
      expect([bad, res.status]).toEqual([bad, 400]);
      expect(res.body.error.type).toBe('invalid_request_error');
    }
    expect((await request(h.app).get('/v1/advisories/CVE-2022-45907')).status).toBe(401);
    expect((await get('/v1/advisories/CVE-2022-45907', noAssetsKey)).status).toBe(403);
  });

  test("a finding's advisory ids link to records the API serves", async () => {
    const fp = `pypi:adv-links:${Date.now()}`;
    const res = await postSignal(
      h,
      signalBody(h.orgId, {
        fingerprint: fp,
        asset_type: 'package',
        raw_manifest: 'langchain==0.0.100\ntorch==1.12.0\n',
      }),
    );
    expect(res.status).toBe(202);
    await enrichLikeWorker(h, fp);
    const findings = await get(`/v1/assets/${enc(fp)}/findings`);
    const r23 = findings.body.data.filter((f: { rule_id: string }) => f.rule_id === 'R23');
    expect(r23.length).toBeGreaterThanOrEqual(5);
    const links: string[] = r23.flatMap((f: { evidence: { references: string[] } }) => f.evidence.references);
    expect(links).toContain('/v1/advisories/GHSA-fprp-p869-w6q2');
    for (const link of links) {
      const adv = await get(link);
      expect([link, adv.status]).toEqual([link, 200]);
    }
  });
});

describe('GET /v1/attack-techniques', () => {
  test('the complete ATLAS release with tactics, one page', async () => {
    const res = await get('/v1/attack-techniques');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(res.body.data).toHaveLength(170);
    expect(res.body.tactics).toHaveLength(16);
    for (const t of res.body.data) {
      expect(t.name.length).toBeGreaterThan(0);
      expect(t.url).toBe(`https://atlas.mitre.org/techniques/${t.id}`);
      expect(t.tactics.length).toBeGreaterThan(0);
    }
    const initial = await get('/v1/attack-techniques?tactic=AML.TA0004');
    expect(initial.body.data.length).toBeGreaterThan(3);
    expect(
      initial.body.data.every((t: { tactics: Array<{ id: string }> }) => t.tactics.some((x) => x.id === 'AML.TA0004')),
    ).toBe(true);
    expect((await get('/v1/attack-techniques?tactic=evil')).status).toBe(400);
  });

  test('one technique; 404 unknown, 400 malformed', async () => {
    const res = await get('/v1/attack-techniques/AML.T0010.001');
    expect(res.body).toMatchObject({
      object: 'attack_technique',
      id: 'AML.T0010.001',
      name: 'AI Software',
      subtechnique_of: 'AML.T0010',
      atlas_version: '5.6.0',
      tactics: [{ id: 'AML.TA0004', name: 'Initial Access' }],
    });
    expect((await get('/v1/attack-techniques/AML.T9999')).status).toBe(404);
    expect((await get('/v1/attack-techniques/T1059')).status).toBe(400);
  });

  test('every technique a finding cites resolves to a name, a tactic and a URL', async () => {
    const fp = `mcp:adv-techniques:${Date.now()}`;
    const manifest = JSON.stringify({
      mcpServers: { shell: { command: 'npx', args: ['-y', 'some-shell-mcp'], env: { GITHUB_TOKEN: 'x' } } },
    });
    const res = await postSignal(
      h,
      signalBody(h.orgId, { fingerprint: fp, asset_type: 'mcp_server', raw_manifest: manifest }),
    );
    expect(res.status).toBe(202);
    await enrichLikeWorker(h, fp);
    const findings = await get(`/v1/assets/${enc(fp)}/findings`);
    const ids = [
      ...new Set<string>(findings.body.data.flatMap((f: { attack_techniques: string[] }) => f.attack_techniques)),
    ];
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const t = await get(`/v1/attack-techniques/${id}`);
      expect([id, t.status, t.body.tactics?.length > 0, typeof t.body.url]).toEqual([id, 200, true, 'string']);
    }
  });

  test('threats cite only techniques of the release: an unknown one is a 400 and creates nothing', async () => {
    const before = await h.ctx.db.prisma.threat.count();
    const res = await postJson(h, '/v1/threats', {
      category: 'malicious_model',
      title: 'Unknown technique',
      severity: 'high',
      attack_techniques: ['AML.T0010', 'AML.T9999'],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'attack_techniques' });
    expect(res.body.error.message).toContain('AML.T9999');
    expect(await h.ctx.db.prisma.threat.count()).toBe(before);
    const ok = await postJson(h, '/v1/threats', {
      category: 'malicious_model',
      title: 'Known technique',
      severity: 'high',
      attack_techniques: ['AML.T0010.001'],
    });
    expect(ok.status).toBe(201);
    const upd = await postJson(h, `/v1/threats/${ok.body.id}`, { attack_techniques: ['AML.T0999'] });
    expect(upd.status).toBe(400);
  });
});
