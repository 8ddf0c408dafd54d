import request from 'supertest';
import { checkAgainstSchema } from '@risk/testing';
import { enrichLikeWorker, postJson, postSignal, signalBody, type Harness } from './harness';
import { byId, stixSuite } from './threats-stix-fixtures';

// STIX 2.1 exchange (docs/threats.md "STIX exchange"). Shared setup: threats-stix-fixtures.ts.

let h: Harness;
let otherOrgKey: string;
const suite = stixSuite('stix-export');
const { auth, importBundle, threatCount, exportOf } = suite;
beforeAll(() => {
  ({ h, otherOrgKey } = suite.state);
});

const native = {
  category: 'malicious_model',
  title: 'Backdoored LoRA',
  description: 'Trigger phrase switches the model.',
  severity: 'critical',
  confidence: 0.875,
  affected_asset_types: ['model'],
  fingerprints: [
    'hf:acme/lora',
    'sha256:' + 'ab'.repeat(32),
    'npm:@acme/agent-kit',
    'pypi:acme-tools',
    'agent:desk 1/it\'s "quoted" \\ back',
    'domain:evil.example',
  ],
  attack_techniques: ['AML.T0010', 'AML.T0018'],
  cve_id: 'CVE-2024-12345',
  remediation: 'Remove the adapter.',
  source: 'internal red team',
  risk_penalty: 30,
  metadata: { feed: 'internal' },
};

describe('export and round trip', () => {
  let ids: string[];
  beforeAll(async () => {
    const made = await Promise.all([
      postJson(h, '/v1/threats', native),
      postJson(h, '/v1/threats', {
        category: 'vulnerable_dependency',
        title: 'CVE only',
        severity: 'high',
        cve_id: 'CVE-2023-1' + '0000',
      }),
      postJson(h, '/v1/threats', {
        category: 'jailbreak',
        title: 'No observable',
        severity: 'low',
        attack_techniques: ['AML.T0054'],
      }),
    ]);
    ids = made.map((r) => r.body.id);
  });

  test('GET /v1/threats/{id}/export: a valid bundle whose import merges into the same threat and changes nothing', async () => {
    const { bundle } = await exportOf(`/v1/threats/${ids[0]}/export`);
    expect(checkAgainstSchema('stix-2.1', bundle)).toEqual({ valid: true, errors: [] });
    const indicator = bundle.objects.find((o) => o.type === 'indicator')!;
    expect(indicator).toMatchObject({ x_risk_threat_id: ids[0], pattern_type: 'stix', name: native.title });
    expect(String(indicator.pattern)).toContain("[url:value = 'https://huggingface.co/acme/lora']");
    expect(bundle.objects.filter((o) => o.type === 'attack-pattern')).toHaveLength(2);
    const again = await exportOf(`/v1/threats/${ids[0]}/export`);
    expect(again.res.text).toBe(JSON.stringify(bundle)); // deterministic
    const before = await threatCount();
    const res = await importBundle(bundle);
    expect(res.status).toBe(200);
    expect(await threatCount()).toBe(before);
    expect(byId(res.body.results, String(indicator.id))).toMatchObject({
      status: 'merged',
      reason: 'up_to_date',
      threat_ids: [ids[0]],
      changed: false,
    });
    const threat = await request(h.app).get(`/v1/threats/${ids[0]}`).set(auth());
    expect(threat.body).toMatchObject({ ...native, metadata: { feed: 'internal' } });
  });

  test("GET /v1/threats/export: the org's threats, valid, and a round trip that duplicates nothing", async () => {
    const { bundle } = await exportOf('/v1/threats/export');
    expect(checkAgainstSchema('stix-2.1', bundle).errors).toEqual([]);
    const carried = bundle.objects.filter((o) => typeof o.x_risk_threat_id === 'string').map((o) => o.x_risk_threat_id);
    expect(carried).toEqual(expect.arrayContaining(ids));
    expect(bundle.objects.find((o) => o.x_risk_threat_id === ids[1])!.type).toBe('vulnerability');
    expect(bundle.objects.find((o) => o.x_risk_threat_id === ids[2])!.type).toBe('attack-pattern');
    const before = await threatCount();
    const res = await importBundle(bundle);
    expect(res.body.summary.imported).toBe(0);
    expect(await threatCount()).toBe(before);
  });

  test('a newer version of an exported threat updates it; another org importing it is skipped as not_owner', async () => {
    const { bundle } = await exportOf(`/v1/threats/${ids[2]}/export`);
    const primary = bundle.objects.find((o) => o.x_risk_threat_id === ids[2])!;
    const other = await importBundle(bundle, otherOrgKey);
    expect(byId(other.body.results, String(primary.id))).toMatchObject({ status: 'skipped', reason: 'not_owner' });
    primary.name = 'No observable (revised)';
    primary.modified = new Date(Date.now() + 5000).toISOString();
    const res = await importBundle(bundle);
    expect(byId(res.body.results, String(primary.id))).toMatchObject({
      status: 'merged',
      reason: 'updated',
      changed: true,
    });
    const threat = await request(h.app).get(`/v1/threats/${ids[2]}`).set(auth());
    expect(threat.body.title).toBe('No observable (revised)');
    primary.modified = '2001-01-01T00:00:00.000Z';
    const old = await importBundle(bundle);
    expect(byId(old.body.results, String(primary.id))).toMatchObject({ status: 'skipped', reason: 'older_version' });
  });

  test('pages with limit and a Link rel="next"; a test key exports none of the live threats', async () => {
    const first = await exportOf('/v1/threats/export?limit=1');
    const next = /^<([^>]+)>; rel="next"$/.exec(String(first.res.headers.link))?.[1];
    expect(next).toContain('starting_after=');
    await exportOf(next!);
    const testKey = await h.mintKey({ livemode: false });
    const { bundle } = await exportOf('/v1/threats/export', testKey);
    expect(bundle.objects.some((o) => o.x_risk_threat_id)).toBe(false);
  });
});

describe('matching and re-enrichment', () => {
  test('an imported indicator on an enriched asset marks it stale and queues its re-enrichment', async () => {
    const body = signalBody(h.orgId, { fingerprint: 'sha256:' + 'cd'.repeat(32) });
    await postSignal(h, body);
    await enrichLikeWorker(h, body.fingerprint as string);
    const bundle = {
      type: 'bundle',
      id: 'bundle--0b1f2b5e-6a8e-4f0e-9a57-9d2b0c6f0a11',
      objects: [
        {
          type: 'indicator',
          spec_version: '2.1',
          id: 'indicator--3c8f1c1e-4b6e-4a3e-8f2d-5e2b9a7d1c33',
          created: '2026-01-01T00:00:00.000Z',
          modified: '2026-01-01T00:00:00.000Z',
          name: 'Trojanised server build',
          indicator_types: ['malicious-activity'],
          pattern: `[file:hashes.'SHA-256' = '${'CD'.repeat(32)}']`,
          pattern_type: 'stix',
          valid_from: '2026-01-01T00:00:00Z',
        },
      ],
    };
    const res = await importBundle(bundle);
    expect(res.body.results[0]).toMatchObject({ status: 'imported' });
    const asset = await h.ctx.db.prisma.asset.findFirstOrThrow({ where: { fingerprint: body.fingerprint as string } });
    expect(asset.enrichment_status).toBe('stale');
    const threats = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent(body.fingerprint as string)}/threats`)
      .set(auth());
    expect(threats.body.data.map((t: { id: string }) => t.id)).toEqual(res.body.results[0].threat_ids);
  });
});
