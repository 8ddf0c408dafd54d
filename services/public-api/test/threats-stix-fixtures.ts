// Shared setup of the STIX suites (threats-stix-import, -export, -concurrency, -hostile).
import request from 'supertest';
import { readSchemaFixture } from '@risk/testing';
import { createHarness, postJson, type Harness } from './harness';

// STIX 2.1 exchange (docs/threats.md "STIX exchange"): imports of the OASIS example bundles, round trips that merge,
// hostile bundles that change nothing. Every bundle we produce is validated against the OASIS JSON schemas.
export type Bundle = { type: 'bundle'; id: string; objects: Array<Record<string, unknown>> };
export type Line = {
  stix_id: string;
  type: string;
  status: string;
  reason: string | null;
  threat_ids: string[];
  changed: boolean;
};

export const example = (file: string) => readSchemaFixture<Bundle>('stix-2.1', `examples/${file}`);
export const byId = (lines: Line[], id: string) => lines.find((l) => l.stix_id === id)!;

/** Registers the harness of a STIX suite (database `label`) and returns the helpers bound to it. */
export function stixSuite(label: string) {
  let h: Harness;
  let otherOrgKey: string;
  const auth = (key = h.key) => ({ Authorization: `Bearer ${key}` });
  const importBundle = (bundle: unknown, key = h.key) => postJson(h, '/v1/threats/import', bundle, key);
  const threatCount = () => h.ctx.db.prisma.threat.count();
  const exportOf = async (path: string, key = h.key) => {
    const res = await request(h.app).get(path).set(auth(key));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/stix\+json; ?version=2\.1/);
    return { res, bundle: JSON.parse(res.text) as Bundle };
  };

  beforeAll(async () => {
    h = await createHarness(label);
    otherOrgKey = await h.mintKey({ orgId: 'org_stix_other' });
  });
  afterAll(() => h.close());

  return {
    get state() {
      return { h, otherOrgKey };
    },
    auth,
    importBundle,
    threatCount,
    exportOf,
  };
}
