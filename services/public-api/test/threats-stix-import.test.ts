import request from 'supertest';
import { checkAgainstSchema } from '@risk/testing';
import { type Harness } from './harness';
import { byId, example, stixSuite, type Line } from './threats-stix-fixtures';

// STIX 2.1 exchange (docs/threats.md "STIX exchange"). Shared setup: threats-stix-fixtures.ts.

let h: Harness;
const suite = stixSuite('stix-import');
const { auth, importBundle, threatCount } = suite;
beforeAll(() => {
  ({ h } = suite.state);
});

describe('POST /v1/threats/import with the OASIS example bundles', () => {
  test.each([
    'indicators-for-C2-with-COA.json',
    'malicious-email-indicator-with-attachment.json',
    'indicator-for-c2-ip-address.json',
    'indicator-to-campaign-relationship.json',
    'infrastructure.json',
    'threat-reports/apt1.json',
    'threat-reports/poisonivy.json',
  ])('%s: one report line per object, in bundle order; a second import merges without writing', async (file) => {
    const bundle = example(file);
    expect(checkAgainstSchema('stix-2.1', bundle).valid).toBe(true);
    const first = await importBundle(bundle);
    expect(first.status).toBe(200);
    expect(first.body.results.map((l: Line) => l.stix_id)).toEqual(bundle.objects.map((o) => o.id));
    const { imported, merged, skipped } = first.body.summary;
    expect(imported + merged + skipped).toBe(bundle.objects.length);
    for (const line of first.body.results as Line[]) {
      if (line.status === 'skipped') expect(line.reason).toEqual(expect.any(String));
      else expect(line.threat_ids.length).toBeGreaterThan(0);
    }
    const count = await threatCount();
    const again = await importBundle(bundle);
    expect(again.status).toBe(200);
    expect(await threatCount()).toBe(count);
    expect(again.body.summary.imported).toBe(0);
    expect((again.body.results as Line[]).some((l) => l.changed)).toBe(false);
  });

  test('C2 bundle: the file-hash indicator becomes a threat; IP addresses, identities and unrelated objects are skipped', async () => {
    const bundle = example('indicators-for-C2-with-COA.json');
    const res = await importBundle(bundle);
    const lines = res.body.results as Line[];
    const hash = byId(lines, 'indicator--a932fcc6-e032-476c-826f-cb970a5a1ade');
    expect(hash).toMatchObject({ status: 'merged', reason: 'up_to_date' });
    const threat = await request(h.app).get(`/v1/threats/${hash.threat_ids[0]}`).set(auth());
    expect(threat.body).toMatchObject({
      title: 'File hash for Poison Ivy variant',
      category: 'malicious_package',
      severity: 'high',
      fingerprints: ['sha256:ef537f25c895bfa782526529a9b63d97aa631564d5d789c2b765448c8635fb6c'],
      created_by_org: h.orgId,
      metadata: { stix: { id: hash.stix_id, type: 'indicator' } },
    });
    expect(byId(lines, 'indicator--53fe3b22-0201-47cf-85d0-97c02164528d')).toMatchObject({
      status: 'skipped',
      reason: 'no_identifying_observable',
    });
    expect(byId(lines, 'identity--f690c992-8e7d-4b9a-9303-3312616c0220').reason).toBe('unsupported_type');
    // the malware the hash indicator indicates, and the relationship saying so, are merged into its threat
    expect(byId(lines, 'malware--fdd60b30-b67c-41e3-b0b9-f01faf20d111')).toMatchObject({
      status: 'merged',
      threat_ids: hash.threat_ids,
    });
  });

  test('poisonivy: CVE vulnerabilities become threats matched by cve_id; domain indicators by domain: fingerprints', async () => {
    const res = await importBundle(example('threat-reports/poisonivy.json'));
    const vulns = (res.body.results as Line[]).filter((l) => l.type === 'vulnerability' && l.status !== 'skipped');
    expect(vulns.length).toBeGreaterThan(0);
    const threat = await request(h.app).get(`/v1/threats/${vulns[0]!.threat_ids[0]}`).set(auth());
    expect(threat.body).toMatchObject({ category: 'vulnerable_dependency', cve_id: expect.stringMatching(/^CVE-/) });
    const rows = await h.ctx.db.prisma.threat.findMany({
      where: { fingerprints: { has: 'domain:microsofta.byinter.net' } },
    });
    expect(rows).toHaveLength(1);
  });
});
