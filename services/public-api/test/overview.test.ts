import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createHarness, postJson, type Harness } from './harness';
import { seedAsset, seedHistory, type SeedAsset } from './overview-seed';

// GET /v1/overview (docs/public-api.md "Overview"): figures on a seeded org, tenant and mode isolation, the org's
// triage in the effective figures, and validation of `days`. Each test seeds its own org, so the figures are exact.

let h: Harness;
const DAY = 86_400_000;
const get = (path: string, key: string) => request(h.app).get(path).set('Authorization', `Bearer ${key}`);
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

beforeAll(async () => {
  h = await createHarness('overview');
});
afterAll(() => h.close());

async function orgWithKey(prefix: string, livemode = true) {
  const orgId = `org_${prefix}_${randomUUID().slice(0, 8)}`;
  return { orgId, key: await h.mintKey({ orgId, livemode }) };
}

const zeros = { critical: 0, high: 0, medium: 0, low: 0, informational: 0 };

describe('GET /v1/overview', () => {
  test("counts the org's assets of the key's mode only, with every figure", async () => {
    const a = await orgWithKey('fig');
    const b = await orgWithKey('other');
    const thr = `thr_ov${randomUUID().replace(/-/g, '').slice(0, 20)}`;
    await h.ctx.db.prisma.threat.create({
      data: {
        id: thr,
        livemode: true,
        created_by_org: b.orgId,
        category: 'malicious_model',
        title: 'Backdoored adapter',
        severity: 'high',
        affected_asset_types: ['model'],
        fingerprints: [],
        attack_techniques: ['AML.T0011.000'],
      },
    });
    const fp = (n: string) => `ov:${a.orgId}:${n}`;
    const assets: SeedAsset[] = [
      {
        fingerprint: fp('critical'),
        score: 95,
        findings: [
          { rule_id: 'R01', severity: 'critical', attack_techniques: ['AML.T0010'] },
          { rule_id: 'threat_match', severity: 'high', attack_techniques: ['AML.T0011.000'], threat_ids: [thr] },
        ],
      },
      {
        fingerprint: fp('high'),
        score: 75,
        findings: [
          { rule_id: 'R01', severity: 'high', attack_techniques: ['AML.T0010'] },
          { rule_id: 'R08', severity: 'medium' },
        ],
      },
      { fingerprint: fp('medium'), score: 45, findings: [{ rule_id: 'R08', severity: 'medium' }] },
      { fingerprint: fp('low'), score: 12, status: 'stale', findings: [{ rule_id: 'R23', severity: 'low' }] },
      { fingerprint: fp('pending'), score: null, status: 'pending' },
      { fingerprint: fp('failed'), score: null, status: 'failed' },
    ];
    for (const asset of assets) await seedAsset(h, { ...asset, orgs: [a.orgId] });
    // another org's asset (a critical one) and the same fingerprint in test mode: neither counts
    await seedAsset(h, { fingerprint: `ov:${b.orgId}:x`, score: 99, orgs: [b.orgId], findings: [{ rule_id: 'R99' }] });
    await seedAsset(h, { fingerprint: fp('critical'), score: 5, livemode: false, orgs: [a.orgId] });
    const now = Date.now();
    await seedHistory(h, fp('critical'), [
      { at: now - 60_000, from: 80, to: 95 }, // up today
      { at: now - 2 * DAY, from: 95, to: 90 }, // down two days ago
      { at: now - 3 * DAY, from: null, to: 95 }, // the baseline: not a change
      { at: now - 4 * DAY, from: 95, to: 95 }, // a finding or AI-BOM change only
      { at: now - 40 * DAY, from: 60, to: 95 }, // outside the default window
    ]);
    await seedHistory(h, `ov:${b.orgId}:x`, [{ at: now - 60_000, from: 10, to: 99 }]);

    const res = await get('/v1/overview', a.key);
    expect(res.status).toBe(200);
    const o = res.body;
    expect(o).toMatchObject({ object: 'overview', livemode: true });
    expect(o.assets).toEqual({
      total: 6,
      scored: 4,
      by_intrinsic_severity: { ...zeros, critical: 1, high: 1, medium: 1, low: 1 },
      by_effective_severity: { ...zeros, critical: 1, high: 1, medium: 1, low: 1 },
    });
    expect(o.score_histogram).toHaveLength(10);
    expect(o.score_histogram.map((b: { intrinsic: number }) => b.intrinsic)).toEqual([0, 1, 0, 0, 1, 0, 0, 1, 0, 1]);
    expect(o.score_histogram[9]).toEqual({ from: 90, to: 100, intrinsic: 1, effective: 1 });
    expect(o.risk_changes.days).toBe(30);
    expect(o.risk_changes.data).toHaveLength(30);
    const days = o.risk_changes.data as Array<{ day: string; changes: number; up: number; down: number }>;
    // found by day: near midnight UTC an entry may fall on the day before the server's today
    const on = (ms: number) => days.find((d) => d.day === utcDay(ms));
    expect(days[29]!.day >= utcDay(now)).toBe(true);
    expect(on(now - 60_000)).toEqual({ day: utcDay(now - 60_000), changes: 1, up: 1, down: 0 });
    expect(on(now - 2 * DAY)).toEqual({ day: utcDay(now - 2 * DAY), changes: 1, up: 0, down: 1 });
    expect(days.reduce((n, d) => n + d.changes, 0)).toBe(2);
    expect(o.top_rules).toEqual([
      { rule_id: 'R01', assets: 2 },
      { rule_id: 'R08', assets: 2 },
      { rule_id: 'R23', assets: 1 },
      { rule_id: 'threat_match', assets: 1 },
    ]);
    expect(o.top_attack_techniques).toEqual([
      { id: 'AML.T0010', assets: 2 },
      { id: 'AML.T0011.000', assets: 1 },
    ]);
    expect(o.recent_threats).toEqual([
      expect.objectContaining({ id: thr, title: 'Backdoored adapter', severity: 'high', matched_assets: 1 }),
    ]);
    expect(o.enrichment_backlog).toEqual({ pending: 1, failed: 1, stale: 1 });

    // a longer window reaches the change of 40 days ago
    const long = await get('/v1/overview?days=60', a.key);
    expect(long.body.risk_changes.data).toHaveLength(60);
    expect(long.body.risk_changes.data.reduce((n: number, d: { changes: number }) => n + d.changes, 0)).toBe(3);

    // the other org sees its own asset only
    const other = (await get('/v1/overview', b.key)).body;
    expect(other.assets.total).toBe(1);
    expect(other.assets.by_intrinsic_severity.critical).toBe(1);
    expect(other.top_rules).toEqual([{ rule_id: 'R99', assets: 1 }]);
    expect(other.recent_threats).toEqual([]);

    // the same org with a test key sees the test-mode asset only
    const testKey = await h.mintKey({ orgId: a.orgId, livemode: false });
    const test = (await get('/v1/overview', testKey)).body;
    expect(test.livemode).toBe(false);
    expect(test.assets).toMatchObject({ total: 1, by_intrinsic_severity: { ...zeros, informational: 1 } });
    expect(test.risk_changes.data.every((d: { changes: number }) => d.changes === 0)).toBe(true);
    expect(test.recent_threats).toEqual([]);
  });

  test("the org's triage moves an asset's effective severity, score bucket and open-finding counts", async () => {
    const t = await orgWithKey('triage');
    const other = await orgWithKey('triage_other');
    const fingerprint = `ov:${t.orgId}:pickle`;
    const [finding] = await seedAsset(h, {
      fingerprint,
      score: 75,
      orgs: [t.orgId, other.orgId],
      findings: [{ rule_id: 'R01', severity: 'high', attack_techniques: ['AML.T0010'] }],
    });
    const before = (await get('/v1/overview', t.key)).body;
    expect(before.assets.by_effective_severity).toEqual({ ...zeros, high: 1 });
    expect(before.top_rules).toEqual([{ rule_id: 'R01', assets: 1 }]);

    const res = await postJson(
      h,
      `/v1/assets/${encodeURIComponent(fingerprint)}/findings/${finding}/triage`,
      { state: 'false_positive', comment: 'test fixture' },
      t.key,
    );
    expect(res.status).toBe(200);
    const after = (await get('/v1/overview', t.key)).body;
    expect(after.assets.by_intrinsic_severity).toEqual({ ...zeros, high: 1 });
    expect(after.assets.by_effective_severity).toEqual({ ...zeros, informational: 1 });
    expect(after.score_histogram[7]).toMatchObject({ intrinsic: 1, effective: 0 });
    expect(after.score_histogram[0]).toMatchObject({ intrinsic: 0, effective: 1 });
    expect(after.top_rules).toEqual([]);
    expect(after.top_attack_techniques).toEqual([]);

    // the other org observing the same asset keeps the shared view
    const theirs = (await get('/v1/overview', other.key)).body;
    expect(theirs.assets.by_effective_severity).toEqual({ ...zeros, high: 1 });
    expect(theirs.top_rules).toEqual([{ rule_id: 'R01', assets: 1 }]);
  });

  test("a severity override moves the org's effective severity only", async () => {
    const t = await orgWithKey('override');
    await seedAsset(h, {
      fingerprint: `ov:${t.orgId}:licence`,
      score: 45,
      orgs: [t.orgId],
      findings: [{ rule_id: 'R09', severity: 'medium' }],
    });
    const put = await request(h.app)
      .put('/v1/severity-overrides/R09')
      .set('Authorization', `Bearer ${t.key}`)
      .send({ severity: 'critical' });
    expect(put.status).toBe(200);
    const o = (await get('/v1/overview', t.key)).body;
    expect(o.assets.by_intrinsic_severity).toEqual({ ...zeros, medium: 1 });
    expect(o.assets.by_effective_severity).toEqual({ ...zeros, critical: 1 });
    expect(o.score_histogram[9]).toMatchObject({ intrinsic: 0, effective: 1 });
    expect(o.top_rules).toEqual([{ rule_id: 'R09', assets: 1 }]);
  });

  test('a bad `days` is 400 in the error envelope', async () => {
    for (const q of ['days=0', 'days=91', 'days=abc', 'days=1.5', 'days=1&days=2']) {
      const res = await get(`/v1/overview?${q}`, h.key);
      expect([q, res.status]).toEqual([q, 400]);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', param: 'days' });
      expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
    }
    const unknown = await get('/v1/overview?day=3', h.key);
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'day' });
    const noScope = await h.mintKey({ scopes: ['signals:write'] });
    expect((await get('/v1/overview', noScope)).status).toBe(403);
  });
});
