// Shared setup of the triage suites (triage-findings, triage-suppressions, triage-score, triage-vex).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createHarness, enrichLikeWorker, postJson, postSignal, signalBody, type Harness } from './harness';

// Per-org triage, suppressions, severity overrides, the score explanation and VEX (docs/triage.md), on
// real manifests: a model card with a pickle file (R01 high + R08) and a requirements pin of an old
// langchain (R23 with CVE ids).
export const FIXTURES = join(__dirname, '../../../packages/enrichment/test/fixtures');
const PICKLE_CARD = readFileSync(join(FIXTURES, '23-hf-card-sklearn-mpg-pickle-README.md'), 'utf8');
export const ORG_B = 'org_triage_other';
export const enc = encodeURIComponent;

export interface FindingBody {
  id: string;
  rule_id: string;
  cve_ids: string[];
  finding_key: string;
  triage: { state: string; set_by: string } | null;
  suppressed_by: string[];
  effective_severity: string;
  counts_toward_effective_score: boolean;
}

export const pickleModel = {
  asset_type: 'model',
  name: 'scikit-learn/mpg',
  version: undefined,
  raw_manifest: PICKLE_CARD,
};

/**
 * Registers the harness of a triage suite (database `label`) and returns the request helpers bound to it.
 * Keys: org A live (h.key), org B live (keyB), org A test mode (keyTest), org A without assets:triage (keyRead).
 */
export function triageSuite(label: string) {
  let h: Harness;
  let keyB: string; // another org, live
  let keyTest: string; // org A, test mode
  let keyRead: string; // org A, minted without assets:triage
  const get = (path: string, key = h.key) => request(h.app).get(path).set('Authorization', `Bearer ${key}`);
  const del = (path: string, key = h.key) => request(h.app).delete(path).set('Authorization', `Bearer ${key}`);
  const put = (path: string, body: object, key = h.key) =>
    request(h.app).put(path).set('Authorization', `Bearer ${key}`).send(body);

  async function asset(fp: string, key = h.key) {
    const res = await get(`/v1/assets/${enc(fp)}?expand[]=findings`, key);
    expect(res.status).toBe(200);
    return res.body as {
      intrinsic_risk_score: number;
      intrinsic_risk_severity: string;
      effective_risk_score: number;
      effective_risk_severity: string;
      findings: FindingBody[];
    };
  }

  /** An enriched live asset (and the same fingerprint in test mode when `test` is set), observed by org A and org B. */
  async function enrichedAsset(over: Record<string, unknown>, opts: { test?: boolean } = {}) {
    const fp = `triage:${Date.now()}:${Math.random().toString(36).slice(2)}`;
    for (const [key, org] of [
      [h.key, h.orgId],
      [keyB, ORG_B],
    ] as const) {
      const res = await postSignal(h, signalBody(org, { fingerprint: fp, ...over }), key);
      expect(res.status).toBe(202);
    }
    await enrichLikeWorker(h, fp);
    if (opts.test) {
      expect((await postSignal(h, signalBody(h.orgId, { fingerprint: fp, ...over }), keyTest)).status).toBe(202);
      await enrichLikeWorker(h, fp, { livemode: false });
    }
    return fp;
  }

  const triage = (fp: string, findingId: string, body: object, key = h.key) =>
    postJson(h, `/v1/assets/${enc(fp)}/findings/${enc(findingId)}/triage`, body, key);

  beforeAll(async () => {
    h = await createHarness(label);
    keyB = await h.mintKey({ orgId: ORG_B });
    keyTest = await h.mintKey({ livemode: false });
    keyRead = await h.mintKey({ scopes: ['assets:read', 'signals:write'] });
  });
  afterAll(() => h.close());

  return {
    get state() {
      return { h, keyB, keyTest, keyRead };
    },
    get,
    del,
    put,
    asset,
    enrichedAsset,
    triage,
  };
}
