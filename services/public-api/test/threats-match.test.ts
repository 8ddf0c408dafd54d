import request from 'supertest';
import { createHarness, enrichLikeWorker, idem, postSignal, signalBody, type Harness } from './harness';
import { findThreatsMatchingAsset } from '@risk/db';
import { bearer as auth } from './threats-fixtures';

describe('matching threats to assets', () => {
  let h3: Harness;
  const fps: Record<string, string> = {};
  const prisma = () => h3.ctx.db.prisma;

  beforeAll(async () => {
    h3 = await createHarness('threatmatch');
    // mcp1, mcp2: MCP servers; model1: a model; cveAsset: an MCP server whose findings name a CVE
    for (const [name, type] of [
      ['mcp1', 'mcp_server'],
      ['mcp2', 'mcp_server'],
      ['model1', 'model'],
      ['cveAsset', 'mcp_server'],
      ['cveModel', 'model'],
      ['pending', 'mcp_server'],
    ] as const) {
      const body = signalBody(h3.orgId, { asset_type: type });
      fps[name] = body.fingerprint as string;
      expect((await postSignal(h3, body)).status).toBe(202);
      if (name !== 'pending') await enrichLikeWorker(h3, fps[name]!);
    }
    for (const name of ['cveAsset', 'cveModel']) {
      const f = await prisma().finding.findFirstOrThrow({ where: { fingerprint: fps[name]! } });
      await prisma().finding.update({ where: { id: f.id }, data: { cve_ids: ['CVE-2025-53110'] } });
    }
  });
  afterAll(() => h3.close());

  const createThreat = (body: Record<string, unknown>, key = h3.key) =>
    request(h3.app)
      .post('/v1/threats')
      .set(auth(key))
      .set('Idempotency-Key', idem())
      .send({ category: 'malicious_package', severity: 'high', title: 'm', ...body });
  const statusOf = async (name: string) =>
    (
      await prisma().asset.findUniqueOrThrow({
        where: { livemode_fingerprint: { livemode: true, fingerprint: fps[name]! } },
      })
    ).enrichment_status;
  const outboxFor = async (threatId: string) =>
    (await prisma().outboxMessage.findMany({ where: { kind: 'enrichment' }, orderBy: { id: 'asc' } }))
      .map((m) => m.payload as { fingerprint: string; digest: string; reason: string })
      .filter((p) => p.reason.startsWith(`threat:${threatId}:`));
  const resetAll = () =>
    prisma().asset.updateMany({ where: { enrichment_status: 'stale' }, data: { enrichment_status: 'enriched' } });
  const nameOf = (fp: string) => Object.entries(fps).find(([, v]) => v === fp)![0];

  test('by fingerprint, filtered by affected_asset_types: matching enriched assets go stale with an enrichment outbox row', async () => {
    await resetAll();
    const res = await createThreat({
      fingerprints: [fps.mcp1, fps.model1, fps.pending],
      affected_asset_types: ['mcp_server'],
    });
    expect(res.status).toBe(201);
    expect(await statusOf('mcp1')).toBe('stale');
    expect(await statusOf('model1')).toBe('enriched'); // listed, but a model is not an affected type
    expect(await statusOf('mcp2')).toBe('enriched');
    expect(await statusOf('pending')).toBe('pending');
    const rows = await outboxFor(res.body.id);
    expect(rows.map((r) => nameOf(r.fingerprint)).sort()).toEqual(['mcp1', 'pending']);
    const mcp1 = await prisma().asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: fps.mcp1! } },
    });
    const updatedMs = (await prisma().threat.findUniqueOrThrow({ where: { id: res.body.id } })).updated.getTime();
    expect(rows.find((r) => r.fingerprint === fps.mcp1)).toEqual({
      livemode: true,
      fingerprint: fps.mcp1,
      digest: mcp1.latest_digest,
      reason: `threat:${res.body.id}:${updatedMs}`,
    });
    // the asset route lists it for mcp1 only
    const listed = await request(h3.app)
      .get(`/v1/assets/${encodeURIComponent(fps.mcp1!)}/threats`)
      .set(auth(h3.key));
    expect(listed.body.data.map((t: { id: string }) => t.id)).toContain(res.body.id);
    const notListed = await request(h3.app)
      .get(`/v1/assets/${encodeURIComponent(fps.model1!)}/threats`)
      .set(auth(h3.key));
    expect(notListed.body.data.map((t: { id: string }) => t.id)).not.toContain(res.body.id);
  });

  test('by CVE among the asset findings, filtered by affected_asset_types', async () => {
    await resetAll();
    const res = await createThreat({ cve_id: 'CVE-2025-53110', affected_asset_types: ['mcp_server'] });
    expect(await statusOf('cveAsset')).toBe('stale');
    expect(await statusOf('cveModel')).toBe('enriched');
    expect(await statusOf('mcp1')).toBe('enriched');
    expect((await outboxFor(res.body.id)).map((r) => nameOf(r.fingerprint))).toEqual(['cveAsset']);
    await resetAll();
    const anyType = await createThreat({ cve_id: 'CVE-2025-53110' });
    expect((await outboxFor(anyType.body.id)).map((r) => nameOf(r.fingerprint)).sort()).toEqual([
      'cveAsset',
      'cveModel',
    ]);
  });

  test('an update re-enriches the assets matched before and after, so removing a fingerprint un-matches', async () => {
    await resetAll();
    const created = (await createThreat({ fingerprints: [fps.mcp1, fps.mcp2] })).body;
    await resetAll();
    const updated = await request(h3.app)
      .post(`/v1/threats/${created.id}`)
      .set(auth(h3.key))
      .set('Idempotency-Key', idem())
      .send({ fingerprints: [fps.mcp2] });
    expect(updated.status).toBe(200);
    expect(await statusOf('mcp1')).toBe('stale'); // no longer matched: its threat finding must go
    expect(await statusOf('mcp2')).toBe('stale');
    const reasons = new Set((await outboxFor(created.id)).map((r) => r.reason));
    expect(reasons.size).toBe(2); // one reason per threat version
    const mcp1Threats = await request(h3.app)
      .get(`/v1/assets/${encodeURIComponent(fps.mcp1!)}/threats`)
      .set(auth(h3.key));
    expect(mcp1Threats.body.data.map((t: { id: string }) => t.id)).not.toContain(created.id);
    // a change of a field enrichment does not read (description) re-enriches nothing
    await resetAll();
    const before = (await outboxFor(created.id)).length;
    await request(h3.app)
      .post(`/v1/threats/${created.id}`)
      .set(auth(h3.key))
      .set('Idempotency-Key', idem())
      .send({ description: 'more' });
    expect((await outboxFor(created.id)).length).toBe(before);
    expect(await statusOf('mcp2')).toBe('enriched');
  });

  test('test-mode threats are not applied to the (global) assets', async () => {
    await resetAll();
    const testKey = await h3.mintKey({ livemode: false });
    const res = await createThreat({ fingerprints: [fps.mcp1] }, testKey);
    expect(res.status).toBe(201);
    expect(await statusOf('mcp1')).toBe('enriched');
    expect(await outboxFor(res.body.id)).toEqual([]);
  });

  test('a threat created after an asset was enriched raises its score on re-enrichment and shows in /threats and findings', async () => {
    await resetAll();
    const before = await prisma().asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: fps.mcp2! } },
    });
    const res = await createThreat({
      fingerprints: [fps.mcp2],
      risk_penalty: 35,
      title: 'Exfiltrating MCP server',
      cve_id: 'CVE-2025-99999',
    });
    expect(await statusOf('mcp2')).toBe('stale');
    // what the enrichment job does with the outbox job: re-read the matching threats and re-score
    const cveIds = [
      ...new Set(
        (
          await prisma().finding.findMany({ where: { fingerprint: fps.mcp2, rule_id: { not: 'threat_match' } } })
        ).flatMap((f) => f.cve_ids),
      ),
    ];
    const threats = await findThreatsMatchingAsset(prisma(), {
      livemode: true,
      fingerprint: fps.mcp2!,
      asset_type: 'mcp_server',
      cve_ids: cveIds,
    });
    expect(threats.map((t) => t.id)).toContain(res.body.id);
    await enrichLikeWorker(h3, fps.mcp2!, { threats: threats.map((t) => ({ ...t, severity: t.severity as 'high' })) });
    const after = await prisma().asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: fps.mcp2! } },
    });
    // score = min(100, base + Σ risk_penalty): the threat's 35 points are added on top
    expect(after.intrinsic_risk_score!).toBeGreaterThan(before.intrinsic_risk_score!);
    expect(
      Math.abs(after.intrinsic_risk_score! - Math.min(100, before.intrinsic_risk_score! + 35)),
    ).toBeLessThanOrEqual(1);
    expect(after.score_breakdown).toMatchObject({ threat_penalty: 35 });

    const listed = await request(h3.app)
      .get(`/v1/assets/${encodeURIComponent(fps.mcp2!)}/threats`)
      .set(auth(h3.key));
    expect(listed.body.data.map((t: { id: string }) => t.id)).toContain(res.body.id);
    const findings = await request(h3.app)
      .get(`/v1/assets/${encodeURIComponent(fps.mcp2!)}/findings?expand[]=threats&limit=100`)
      .set(auth(h3.key));
    const linked = findings.body.data.find((f: { rule_id?: string; threats: Array<{ id: string }> }) =>
      f.threats.some((t) => t.id === res.body.id),
    );
    expect(linked).toBeDefined();
    expect(linked.threats[0]).toMatchObject({ object: 'threat', id: res.body.id, risk_penalty: 35 });
  });
});
