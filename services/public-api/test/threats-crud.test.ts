import request from 'supertest';
import { postJson, type Harness } from './harness';
import { bearer, createThreatsHarness, fullThreat } from './threats-fixtures';

let h: Harness;
let readOnlyKey: string;
const auth = (key = h.key) => bearer(key);
const post = (path: string, body: unknown, key = h.key) => postJson(h, path, body, key);

beforeAll(async () => {
  ({ h, readOnlyKey } = await createThreatsHarness('threats-crud'));
});
afterAll(() => h.close());

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
});
