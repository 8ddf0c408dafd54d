import request from 'supertest';
import { type Harness } from './harness';
import { stixSuite, type Bundle } from './threats-stix-fixtures';

// STIX 2.1 exchange (docs/threats.md "STIX exchange"). Shared setup: threats-stix-fixtures.ts.

let h: Harness;
const suite = stixSuite('stix-concurrency');
const { auth, importBundle } = suite;
beforeAll(() => {
  ({ h } = suite.state);
});

describe('concurrency and modes', () => {
  const fresh = (n: number): Bundle => ({
    type: 'bundle',
    id: `bundle--9d0e7f52-1c55-4d33-8a55-0000000000${n}0`,
    objects: [
      {
        type: 'indicator',
        spec_version: '2.1',
        id: `indicator--9d0e7f52-1c55-4d33-8a55-0000000000${n}1`,
        created: '2026-01-01T00:00:00.000Z',
        modified: '2026-01-01T00:00:00.000Z',
        name: `Typosquat ${n}`,
        indicator_types: ['malicious-activity'],
        pattern: `[url:value = 'https://www.npmjs.com/package/reqeusts-${n}']`,
        pattern_type: 'stix',
        valid_from: '2026-01-01T00:00:00Z',
      },
    ],
  });

  test('two concurrent imports of one new bundle create one threat (the per-org lock)', async () => {
    const bundle = fresh(1);
    const [a, b] = await Promise.all([importBundle(bundle), importBundle(bundle)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.results[0].status, b.body.results[0].status].sort()).toEqual(['imported', 'merged']);
    const rows = await h.ctx.db.prisma.threat.findMany({ where: { fingerprints: { has: 'npm:reqeusts-1' } } });
    expect(rows).toHaveLength(1);
  });

  test('a bundle of 1000 indicators imports in one transaction, and merges on the second import', async () => {
    const hex = (n: number) => n.toString(16).padStart(12, '0');
    const bundle: Bundle = {
      type: 'bundle',
      id: 'bundle--5a1c3e0f-7b2d-4c8e-9f10-000000000000',
      objects: Array.from({ length: 1000 }, (_, n) => ({
        type: 'indicator',
        spec_version: '2.1',
        id: `indicator--5a1c3e0f-7b2d-4c8e-9f10-${hex(n)}`,
        created: '2026-01-01T00:00:00.000Z',
        modified: '2026-01-01T00:00:00.000Z',
        name: `Feed domain ${n}`,
        indicator_types: ['malicious-activity'],
        pattern: `[domain-name:value = 'feed-${n}.example']`,
        pattern_type: 'stix',
        valid_from: '2026-01-01T00:00:00Z',
      })),
    };
    const first = await importBundle(bundle);
    expect(first.status).toBe(200);
    expect(first.body.summary).toEqual({ imported: 1000, merged: 0, skipped: 0 });
    const second = await importBundle(bundle);
    expect(second.body.summary).toEqual({ imported: 0, merged: 1000, skipped: 0 });
  });

  test('a test-mode import creates test-mode threats only, which live keys never see', async () => {
    const testKey = await h.mintKey({ livemode: false });
    const res = await importBundle(fresh(2), testKey);
    expect(res.body).toMatchObject({ livemode: false, summary: { imported: 1 } });
    const id = res.body.results[0].threat_ids[0];
    expect((await request(h.app).get(`/v1/threats/${id}`).set(auth())).status).toBe(404);
    expect((await request(h.app).get(`/v1/threats/${id}`).set(auth(testKey))).status).toBe(200);
    // the same bundle under a live key is a new live threat, not a merge into the test one
    const live = await importBundle(fresh(2));
    expect(live.body.results[0]).toMatchObject({ status: 'imported' });
    expect(live.body.results[0].threat_ids[0]).not.toBe(id);
  });
});
