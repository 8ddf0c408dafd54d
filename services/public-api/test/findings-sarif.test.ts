import request from 'supertest';
import { ruleById } from '@risk/enrichment';
import { checkAgainstSchema } from '@risk/testing';
import { createHarness, enrichLikeWorker, postSignal, signalBody, type Harness } from './harness';

// Findings as SARIF 2.1.0 (docs/formats.md "SARIF"), validated against the OASIS schema (packages/testing fixtures).
let h: Harness;
const auth = () => ({ Authorization: `Bearer ${h.key}` });
const CARD =
  '---\nlicense: llama3\nbase_model: meta-llama/Meta-Llama-3-8B\nbase_model_relation: adapter\n' +
  'datasets:\n- tatsu-lab/alpaca\npipeline_tag: text-generation\ntags:\n- nsfw\n---\n# LoRA\n';
const model = (name: string) =>
  signalBody(h.orgId, {
    fingerprint: `hf:${name}`,
    asset_type: 'model',
    name,
    version: '1.0',
    source_url: `https://huggingface.co/${name}`,
    raw_manifest: CARD,
  });
const sarifOf = (res: { text: string }) => JSON.parse(res.text) as Record<string, any>;

beforeAll(async () => {
  h = await createHarness('sarif');
  for (const name of ['acme/sarif-a', 'acme/sarif-b', 'acme/sarif-c']) {
    await postSignal(h, model(name));
    await enrichLikeWorker(h, `hf:${name}`);
  }
  await postSignal(h, model('acme/sarif-pending'));
});
afterAll(() => h.close());

describe('GET /v1/assets/{fp}/findings?format=sarif', () => {
  test('is a valid SARIF 2.1.0 log: registry rules, levels, the asset as location, stable fingerprints', async () => {
    const fp = encodeURIComponent('hf:acme/sarif-a');
    const res = await request(h.app).get(`/v1/assets/${fp}/findings?format=sarif`).set(auth());
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/sarif\+json/);
    const log = sarifOf(res);
    expect(checkAgainstSchema('sarif-2.1.0', log)).toEqual({ valid: true, errors: [] });
    const run = log.runs[0];
    const json = await request(h.app).get(`/v1/assets/${fp}/findings?limit=100`).set(auth());
    const ruleIds = json.body.data.map((f: { rule_id: string }) => f.rule_id);
    expect(ruleIds.length).toBeGreaterThan(0);
    // the list is newest first; the log is in finding-id order
    expect(run.results.map((r: { ruleId: string }) => r.ruleId).sort()).toEqual([...ruleIds].sort());
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining(['R10', 'R13']));
    const r10 = run.tool.driver.rules.find((r: { id: string }) => r.id === 'R10');
    // the rule's default level is the registry's severity (R10: low); each result's level is its finding's
    expect(ruleById('R10').severity).toBe('low');
    expect(r10).toMatchObject({
      name: ruleById('R10').title,
      defaultConfiguration: { level: 'note' },
      properties: { 'security-severity': '3.0', category: ruleById('R10').category },
    });
    expect(r10.help.text).toContain('§3 R10');
    for (const result of run.results) {
      expect(run.tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId);
      const level = { critical: 'error', high: 'error', medium: 'warning', low: 'note', informational: 'note' };
      expect(result.level).toBe(level[result.properties.severity as keyof typeof level]);
      expect(result.locations[0].physicalLocation.artifactLocation.uri).toBe('pkg:huggingface/acme/sarif-a');
      expect(result.locations[0].logicalLocations[0]).toMatchObject({ fullyQualifiedName: 'hf:acme/sarif-a' });
    }
    // a re-enrichment writes new finding rows (new ids); the partial fingerprints stay the same
    const before = run.results.map((r: { partialFingerprints: unknown }) => r.partialFingerprints);
    await enrichLikeWorker(h, 'hf:acme/sarif-a');
    const again = sarifOf(await request(h.app).get(`/v1/assets/${fp}/findings?format=sarif`).set(auth()));
    const after = await request(h.app).get(`/v1/assets/${fp}/findings?limit=100`).set(auth());
    expect(after.body.data[0].id).not.toBe(json.body.data[0].id);
    expect(again.runs[0].results.map((r: { partialFingerprints: unknown }) => r.partialFingerprints)).toEqual(before);
    expect(new Set(before.map((p: Record<string, string>) => p['riskFindingIdentity/v1'])).size).toBe(before.length);
  });

  test.each([
    ['starting_after=fnd_x', 'starting_after'],
    ['expand[]=threats', 'expand'],
    ['format=xml', 'format'],
  ])('format=sarif with %s is 400 naming %s', async (query, param) => {
    const fp = encodeURIComponent('hf:acme/sarif-a');
    const format = query.startsWith('format') ? '' : 'format=sarif&';
    const res = await request(h.app).get(`/v1/assets/${fp}/findings?${format}${query}`).set(auth());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ param });
  });

  test('a pending asset is 404 asset_not_enriched, as for the JSON list', async () => {
    const res = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent('hf:acme/sarif-pending')}/findings?format=sarif`)
      .set(auth());
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('asset_not_enriched');
  });
});

describe('GET /v1/assets?format=sarif', () => {
  test('one run over a filtered page; Link rel="next" pages on with the same filters', async () => {
    const first = await request(h.app).get('/v1/assets?format=sarif&asset_type=model&limit=2').set(auth());
    expect(first.status).toBe(200);
    const log = sarifOf(first);
    expect(checkAgainstSchema('sarif-2.1.0', log).errors).toEqual([]);
    const assets = log.runs[0].properties.assets.map((a: { fingerprint: string }) => a.fingerprint);
    expect(assets).toHaveLength(2);
    const link = String(first.headers.link);
    const next = /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
    expect(next).toContain('asset_type=model');
    const second = await request(h.app).get(next!).set(auth());
    expect(second.status).toBe(200);
    const rest = sarifOf(second).runs[0].properties.assets.map((a: { fingerprint: string }) => a.fingerprint);
    expect([...assets, ...rest].sort()).toEqual(
      ['hf:acme/sarif-a', 'hf:acme/sarif-b', 'hf:acme/sarif-c', 'hf:acme/sarif-pending'].sort(),
    );
    expect(second.headers.link).toBeUndefined();
    const results = [...log.runs[0].results, ...sarifOf(second).runs[0].results];
    // the pending asset has no findings; the three enriched ones have theirs
    expect(new Set(results.map((r: { properties: { fingerprint: string } }) => r.properties.fingerprint)).size).toBe(3);
  });

  test('a test key sees none of the live assets', async () => {
    const testKey = await h.mintKey({ livemode: false });
    const res = await request(h.app)
      .get('/v1/assets?format=sarif')
      .set({ Authorization: `Bearer ${testKey}` });
    expect(res.status).toBe(200);
    const log = sarifOf(res);
    expect(log.runs[0].results).toEqual([]);
    expect(checkAgainstSchema('sarif-2.1.0', log).valid).toBe(true);
  });

  test('expand[] with format=sarif is 400', async () => {
    const res = await request(h.app).get('/v1/assets?format=sarif&expand[]=findings').set(auth());
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('expand');
  });
});

describe('GET /v1/assets/{fp}/aibom?format=spdx3_json', () => {
  test('is SPDX 3.0.1 JSON-LD valid against the schema, with the AI and Dataset profiles and lineage', async () => {
    const res = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent('hf:acme/sarif-b')}/aibom?format=spdx3_json`)
      .set(auth());
    expect(res.status).toBe(200);
    const doc = JSON.parse(res.text);
    expect(checkAgainstSchema('spdx-3.0.1', doc)).toEqual({ valid: true, errors: [] });
    expect(doc['@context']).toBe('https://spdx.org/rdf/3.0.1/spdx-context.jsonld');
    const graph = doc['@graph'] as Array<Record<string, any>>;
    const ai = graph.filter((e) => e.type === 'ai_AIPackage');
    const primary = ai.find((e) => e.name === 'acme/sarif-b')!;
    expect(primary).toMatchObject({
      software_primaryPurpose: 'model',
      software_packageVersion: '1.0',
      software_packageUrl: 'pkg:huggingface/acme/sarif-b',
      ai_domain: ['text-generation'],
      ai_limitation: 'Tagged as not for all audiences (NSFW).',
      ai_safetyRiskAssessment: 'medium',
    });
    const supplier = graph.find((e) => e.spdxId === primary.suppliedBy);
    expect(supplier).toMatchObject({ type: 'Organization', name: 'acme' });
    const dataset = graph.find((e) => e.type === 'dataset_DatasetPackage')!;
    expect(dataset).toMatchObject({ name: 'tatsu-lab/alpaca', dataset_datasetType: ['noAssertion'] });
    const rel = (type: string) => graph.filter((e) => e.type === 'Relationship' && e.relationshipType === type);
    expect(rel('trainedOn')).toEqual([expect.objectContaining({ from: primary.spdxId, to: [dataset.spdxId] })]);
    const base = ai.find((e) => e.name === 'meta-llama/Meta-Llama-3-8B')!;
    expect(rel('descendantOf')).toEqual([expect.objectContaining({ from: primary.spdxId, to: [base.spdxId] })]);
    const licence = graph.find((e) => e.spdxId === rel('hasDeclaredLicense')[0]!.to[0]);
    expect(licence).toMatchObject({ simplelicensing_licenseExpression: 'LicenseRef-llama3' });
    // every element the document lists is in the graph
    const ids = new Set(graph.map((e) => e.spdxId));
    const document = graph.find((e) => e.type === 'SpdxDocument')!;
    for (const member of document.element) expect(ids.has(member)).toBe(true);
    // deterministic: the same AI-BOM renders byte for byte the same
    const again = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent('hf:acme/sarif-b')}/aibom?format=spdx3_json`)
      .set(auth());
    expect(again.text).toBe(res.text);
  });
});
