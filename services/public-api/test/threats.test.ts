import request from 'supertest';
import { createHarness, enrichLikeWorker, idem, postJson, postSignal, signalBody, type Harness } from './harness';
import { findThreatsMatchingAsset } from '@risk/common';

let h: Harness;
let otherOrgKey: string;
let readOnlyKey: string;
const auth = (key = h.key) => ({ Authorization: `Bearer ${key}` });
const post = (path: string, body: unknown, key = h.key) => postJson(h, path, body, key);

beforeAll(async () => {
  h = await createHarness('threats');
  otherOrgKey = await h.mintKey({ orgId: 'org_threats_other' });
  readOnlyKey = await h.mintKey({ scopes: ['threats:read'] });
});
afterAll(() => h.close());

const fullThreat = {
  category: 'malicious_model',
  title: 'Pickle payload in model weights',
  description: 'The checkpoint runs code on load.',
  severity: 'critical',
  confidence: 0.9,
  affected_asset_types: ['model'],
  fingerprints: ['hf:evil/model'],
  attack_techniques: ['AML.T0010', 'AML.T0010.003'],
  cve_id: 'CVE-2024-12345',
  remediation: 'Remove the model; load weights with safetensors.',
  source: 'https://example.org/advisory/1',
  risk_penalty: 40,
  metadata: { feed: 'internal', tags: ['pickle'] },
};

describe('threat CRUD', () => {
  test('POST /v1/threats creates a threat (201) with every field, owned by the key org', async () => {
    const res = await post('/v1/threats', fullThreat);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'threat',
      id: expect.stringMatching(/^thr_/),
      ...fullThreat,
      created_by_org: h.orgId,
      livemode: true,
      created: expect.any(Number),
      updated: expect.any(Number),
    });
    expect(Math.abs(res.body.created - Date.now() / 1000)).toBeLessThan(60);
    const got = await request(h.app).get(`/v1/threats/${res.body.id}`).set(auth(readOnlyKey));
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  test('only category, title and severity are required; the rest default to null or empty', async () => {
    const res = await post('/v1/threats', { category: 'typosquat', title: 'lookalike package', severity: 'medium' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      description: null,
      confidence: null,
      affected_asset_types: [],
      fingerprints: [],
      attack_techniques: [],
      cve_id: null,
      remediation: null,
      source: null,
      risk_penalty: 0,
      metadata: null,
    });
  });

  // every row is a valid body (`valid`) with one thing wrong
  const valid = { category: 'jailbreak', title: 't', severity: 'high' };
  const without = (field: keyof typeof valid) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== field));
  test.each([
    ['missing category', without('category'), 'missing_required_param', 'category'],
    ['missing title', without('title'), 'missing_required_param', 'title'],
    ['missing severity', without('severity'), 'missing_required_param', 'severity'],
    ['unknown category', { ...valid, category: 'aliens' }, 'parameter_invalid', 'category'],
    ['unknown severity', { ...valid, severity: 'severe' }, 'parameter_invalid', 'severity'],
    ['blank title', { ...valid, title: '   ' }, 'parameter_invalid', 'title'],
    ['confidence above 1', { ...valid, confidence: 1.5 }, 'parameter_invalid', 'confidence'],
    ['negative confidence', { ...valid, confidence: -0.1 }, 'parameter_invalid', 'confidence'],
    ['risk_penalty above 100', { ...valid, risk_penalty: 101 }, 'parameter_invalid', 'risk_penalty'],
    ['negative risk_penalty', { ...valid, risk_penalty: -1 }, 'parameter_invalid', 'risk_penalty'],
    ['fractional risk_penalty', { ...valid, risk_penalty: 5.5 }, 'parameter_invalid_integer', 'risk_penalty'],
    ['malformed cve_id', { ...valid, cve_id: 'CVE-24-1' }, 'parameter_invalid', 'cve_id'],
    [
      'malformed ATLAS id',
      { ...valid, attack_techniques: ['AML.T0010', 'T1059'] },
      'parameter_invalid',
      'attack_techniques[1]',
    ],
    [
      'malformed ATLAS sub-technique',
      { ...valid, attack_techniques: ['AML.T0010.01'] },
      'parameter_invalid',
      'attack_techniques[0]',
    ],
    [
      'unknown asset type',
      { ...valid, affected_asset_types: ['robot'] },
      'parameter_invalid',
      'affected_asset_types[0]',
    ],
    ['unknown field', { ...valid, score: 3 }, 'parameter_unknown', 'score'],
    ['client-chosen id', { ...valid, id: 'thr_mine' }, 'parameter_unknown', 'id'],
    ['client-chosen created_by_org', { ...valid, created_by_org: 'org_x' }, 'parameter_unknown', 'created_by_org'],
    ['repeated fingerprints', { ...valid, fingerprints: ['a', 'a'] }, 'parameter_invalid', 'fingerprints'],
  ])('rejects %s with 400 %s naming %s, and writes nothing', async (_label, body, code, param) => {
    const before = await h.ctx.db.prisma.threat.count();
    const res = await post('/v1/threats', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
    expect(await h.ctx.db.prisma.threat.count()).toBe(before);
  });

  test('writing needs threats:write; reading needs threats:read', async () => {
    const write = await post('/v1/threats', { category: 'jailbreak', title: 't', severity: 'low' }, readOnlyKey);
    expect(write.status).toBe(403);
    expect(write.body.error).toMatchObject({ type: 'permission_error', code: 'insufficient_scope' });
    const signalsOnly = await h.mintKey({ scopes: ['signals:write'] });
    const read = await request(h.app).get('/v1/threats').set(auth(signalsOnly));
    expect(read.status).toBe(403);
  });

  test('an unknown threat is 404 resource_missing', async () => {
    const res = await request(h.app).get('/v1/threats/thr_nope').set(auth());
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'resource_missing', param: 'threat_id' });
  });

  test('POST /v1/threats/{id} updates only the fields sent; id, created and created_by_org are immutable', async () => {
    const created = (await post('/v1/threats', fullThreat)).body;
    await new Promise((r) => setTimeout(r, 1100)); // so `updated` moves on a second boundary
    const res = await post(`/v1/threats/${created.id}`, { severity: 'high', description: null, risk_penalty: 25 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...created,
      severity: 'high',
      description: null,
      risk_penalty: 25,
      updated: expect.any(Number),
    });
    expect(res.body.updated).toBeGreaterThan(created.updated);
    for (const field of ['id', 'created', 'created_by_org', 'livemode', 'object']) {
      const bad = await post(`/v1/threats/${created.id}`, { [field]: 'x' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: 'parameter_unknown', param: field });
    }
    const invalid = await post(`/v1/threats/${created.id}`, { cve_id: 'nope' });
    expect(invalid.body.error).toMatchObject({ code: 'parameter_invalid', param: 'cve_id' });
  });

  test('another org cannot update a threat: 403 permission_error not_owner, and nothing changes', async () => {
    const created = (await post('/v1/threats', fullThreat)).body;
    const res = await post(`/v1/threats/${created.id}`, { title: 'hijacked' }, otherOrgKey);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'not_owner' });
    // but it can read it: threats are shared
    const got = await request(h.app).get(`/v1/threats/${created.id}`).set(auth(otherOrgKey));
    expect(got.status).toBe(200);
    expect(got.body.title).toBe(fullThreat.title);
  });

  test('updating an unknown threat is 404', async () => {
    const res = await post('/v1/threats/thr_nope', { title: 'x' });
    expect(res.status).toBe(404);
  });

  test('threats are read per mode: a test-mode key does not see live threats', async () => {
    const created = (await post('/v1/threats', fullThreat)).body;
    const testKey = await h.mintKey({ livemode: false });
    expect((await request(h.app).get(`/v1/threats/${created.id}`).set(auth(testKey))).status).toBe(404);
    const mine = await post(
      '/v1/threats',
      { category: 'jailbreak', title: 'test-mode threat', severity: 'low' },
      testKey,
    );
    expect(mine.body.livemode).toBe(false);
    const list = await request(h.app).get('/v1/threats?limit=100').set(auth(testKey));
    expect(list.body.data.map((t: { id: string }) => t.id)).toEqual([mine.body.id]);
  });
});

describe('GET /v1/threats', () => {
  const ids: string[] = [];
  let h2: Harness;
  beforeAll(async () => {
    h2 = await createHarness('threatlist');
    const mk = (over: Record<string, unknown>) =>
      request(h2.app)
        .post('/v1/threats')
        .set(auth(h2.key))
        .set('Idempotency-Key', idem())
        .send({ title: 't', ...over });
    const specs = [
      { category: 'malicious_model', severity: 'critical', affected_asset_types: ['model'] },
      { category: 'prompt_injection', severity: 'high', affected_asset_types: ['mcp_server', 'agent'] },
      { category: 'prompt_injection', severity: 'medium', affected_asset_types: [] },
      { category: 'tool_poisoning', severity: 'high', affected_asset_types: ['mcp_server'] },
      { category: 'malicious_model', severity: 'low', affected_asset_types: ['model', 'dataset'] },
    ];
    for (const s of specs) ids.push((await mk(s)).body.id);
  });
  afterAll(() => h2.close());

  const list = (qs: string) => request(h2.app).get(`/v1/threats${qs}`).set(auth(h2.key));

  test('lists newest first in the list envelope', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', url: '/v1/threats', has_more: false, next_cursor: null });
    expect(res.body.data.map((t: { id: string }) => t.id)).toEqual([...ids].reverse());
  });

  test.each([
    ['?category=prompt_injection', [2, 1]],
    ['?severity=high', [3, 1]],
    ['?affected_asset_type=mcp_server', [3, 1]],
    ['?affected_asset_type=model&severity=low', [4]],
    ['?category=malicious_model&affected_asset_type=dataset', [4]],
  ])('filters %s', async (qs, expected) => {
    const res = await list(qs);
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: { id: string }) => t.id)).toEqual(expected.map((i) => ids[i]));
  });

  test('rejects an unknown filter value', async () => {
    const res = await list('?category=aliens');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'category' });
  });

  test('pages forward with starting_after and back with ending_before', async () => {
    const newestFirst = [...ids].reverse();
    const p1 = await list('?limit=2');
    expect(p1.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(0, 2));
    expect(p1.body).toMatchObject({ has_more: true, next_cursor: newestFirst[1] });
    const p2 = await list(`?limit=2&starting_after=${p1.body.next_cursor}`);
    expect(p2.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(2, 4));
    const p3 = await list(`?limit=2&starting_after=${p2.body.next_cursor}`);
    expect(p3.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(4));
    expect(p3.body).toMatchObject({ has_more: false, next_cursor: null });
    const back = await list(`?limit=2&ending_before=${newestFirst[4]}`);
    expect(back.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(2, 4));
    expect(back.body.has_more).toBe(true);
    const both = await list(`?starting_after=${ids[0]}&ending_before=${ids[1]}`);
    expect(both.body.error).toMatchObject({ code: 'parameters_exclusive' });
    const unknown = await list('?starting_after=thr_missing');
    expect(unknown.body.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
  });
});

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

describe('threat events', () => {
  test('an update that changes nothing (metadata keys in another order included) records no event', async () => {
    const created = (
      await post('/v1/threats', { ...fullThreat, metadata: { feed: 'internal', rank: 2, nested: { b: 1, a: 2 } } })
    ).body;
    const same = await post(`/v1/threats/${created.id}`, {
      severity: created.severity,
      metadata: { nested: { a: 2, b: 1 }, rank: 2, feed: 'internal' },
    });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(created);
    const events = await h.ctx.db.prisma.event.findMany({
      where: { data: { path: ['object', 'id'], equals: created.id } },
    });
    expect(events.map((e) => e.type)).toEqual(['threat.created']);
  });

  test('creating and updating a threat records threat.created and threat.updated (with previous_attributes)', async () => {
    const created = (
      await post('/v1/threats', {
        category: 'data_poisoning',
        title: 'poisoned set',
        severity: 'medium',
        risk_penalty: 5,
      })
    ).body;
    await post(`/v1/threats/${created.id}`, { severity: 'high', risk_penalty: 15 });
    const events = await h.ctx.db.prisma.event.findMany({
      where: { data: { path: ['object', 'id'], equals: created.id } },
      orderBy: { id: 'asc' },
    });
    expect(events.map((e) => e.type)).toEqual(['threat.created', 'threat.updated']);
    expect(events[0]).toMatchObject({ org_id: null, fingerprint: null, livemode: true });
    expect(events[0]!.data).toEqual({ object: created });
    expect(events[1]!.data).toMatchObject({
      object: { id: created.id, severity: 'high', risk_penalty: 15 },
      previous_attributes: { severity: 'medium', risk_penalty: 5, updated: created.updated },
    });
  });
});
