import { randomUUID } from 'node:crypto';
import { mintApiKey } from '@risk/common/api-keys';
import { SCOPES } from '@risk/contracts';
import { drainProjections } from '@risk/public-api';
import request from 'supertest';
import { runMaintenance, startWorker, type RunningWorker } from '../src';
import { createWorkerHarness, waitFor, type WorkerHarness } from './harness';

/**
 * docs/security.md "Modes and shared observations", attacked through the real API, queue and worker:
 * a test key cannot touch live assets, events or threats (test mode is a sandbox), and no org can
 * lower the risk another org reported for a shared fingerprint.
 */

// A Hugging Face model card (front matter + body, the shape of packages/enrichment/test/fixtures) whose
// file listing (metadata.files, as the HF API lists siblings) decides the risk: pickle weights are
// rule R01 (unsafe deserialization, high), safetensors only is benign.
const card = ['---', 'license: apache-2.0', 'library_name: transformers', '---', '# acme/model', 'Fine-tuned.'].join(
  '\n',
);
const risky = { raw_manifest: card, metadata: { files: ['model.pkl', 'pytorch_model.bin'] } };
const benign = { raw_manifest: card, metadata: { files: ['model.safetensors'] } };

describe('modes and shared observations (hostile orgs and test keys)', () => {
  let h: WorkerHarness;
  let worker: RunningWorker;
  /** org A = the harness org; org B = another tenant */
  const orgB = 'org_modesobs_b';
  let liveA: string;
  let testA: string;
  let liveB: string;
  let testB: string;

  beforeAll(async () => {
    h = await createWorkerHarness('modesobs');
    worker = startWorker(h.deps, { maintenance: false });
    liveA = h.key;
    const mint = async (org_id: string, livemode: boolean) =>
      (await mintApiKey(h.ctx.db.prisma, { org_id, scopes: [...SCOPES], livemode })).key;
    testA = await mint(h.orgId, false);
    liveB = await mint(orgB, true);
    testB = await mint(orgB, false);
  });
  afterAll(async () => {
    await worker.close();
    await h.close();
  });

  const orgOf = (key: string) => (key === liveB || key === testB ? orgB : h.orgId);
  const livemodeOf = (key: string) => key === liveA || key === liveB;
  const send = async (key: string, fingerprint: string, content: Record<string, unknown>) => {
    const res = await request(h.app)
      .post('/v1/signals')
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', randomUUID())
      .send({
        org_id: orgOf(key),
        observed_at: Math.floor(Date.now() / 1000) - 5,
        fingerprint,
        asset_type: 'model',
        name: 'acme/model',
        ...content,
      });
    expect(res.status).toBe(202);
    return res.body as { id: string; content_digest: string };
  };
  /** waits until the asset of that mode is enriched for its current set of observations */
  const settle = (fingerprint: string, livemode: boolean) =>
    h.waitForAsset(
      fingerprint,
      (a) => a.enrichment_status === 'enriched' && a.enriched_digest === a.latest_digest,
      20_000,
      livemode,
    );
  const get = (key: string, path: string) => request(h.app).get(path).set('Authorization', `Bearer ${key}`);
  const assetOf = async (key: string, fingerprint: string) => {
    const res = await get(key, `/v1/assets/${encodeURIComponent(fingerprint)}?expand[]=findings&expand[]=aibom`);
    expect(res.status).toBe(200);
    return res.body as {
      intrinsic_risk_score: number;
      findings: Array<{ id: string; rule_id: string }>;
      aibom: { id: string; bom_version: number };
      signal_count: number;
      enriched_at: number;
    };
  };
  const ruleIds = (a: { findings: Array<{ rule_id: string }> }) => a.findings.map((f) => f.rule_id);

  describe('test mode is a sandbox', () => {
    const shared = 'hf:acme/sandboxed-model';
    const testOnly = 'hf:acme/test-only-model';
    const liveOnly = 'hf:acme/live-only-model';

    beforeAll(async () => {
      // both modes have an endpoint of org A subscribed to everything (deliveries are asserted below)
      for (const [key, url] of [
        [liveA, 'https://127.0.0.1:1/live'],
        [testA, 'http://127.0.0.1:1/test'],
      ] as const) {
        const res = await request(h.app)
          .post('/v1/webhooks')
          .set('Authorization', `Bearer ${key}`)
          .set('Idempotency-Key', randomUUID())
          .send({ url, events: ['*'] });
        expect(res.status).toBe(201);
      }
    });

    it("a test key's benign signal for a live risky fingerprint changes only a separate test-mode asset", async () => {
      await send(liveA, shared, risky);
      await settle(shared, true);
      const liveBefore = await assetOf(liveA, shared);
      expect(liveBefore.intrinsic_risk_score).toBeGreaterThanOrEqual(70);
      const rowBefore = await h.ctx.db.prisma.asset.findUniqueOrThrow({
        where: { livemode_fingerprint: { livemode: true, fingerprint: shared } },
      });

      // the attacker's test keys (its own org and org A's) send benign content for the same fingerprint
      await send(testB, shared, benign);
      await send(testA, shared, benign);
      await settle(shared, false);

      const testAsset = await assetOf(testB, shared);
      expect(testAsset.intrinsic_risk_score).toBe(0);
      expect(testAsset.signal_count).toBe(2);
      expect(testAsset.aibom.id).not.toBe(liveBefore.aibom.id);

      // the live asset is untouched: same row, same findings, same AI-BOM
      expect(await assetOf(liveA, shared)).toEqual(liveBefore);
      expect(await assetOf(liveB, shared)).toEqual(liveBefore);
      const rowAfter = await h.ctx.db.prisma.asset.findUniqueOrThrow({
        where: { livemode_fingerprint: { livemode: true, fingerprint: shared } },
      });
      expect(rowAfter).toEqual(rowBefore);
      // the test asset's findings and AI-BOM ids are not readable with a live key, and the reverse
      const liveFindings = await get(liveA, `/v1/assets/${encodeURIComponent(shared)}/findings?limit=100`);
      expect(liveFindings.body.data.map((f: { id: string }) => f.id).sort()).toEqual(
        liveBefore.findings.map((f) => f.id).sort(),
      );
      expect(ruleIds(liveBefore)).toContain('R01');
      expect(ruleIds(testAsset)).not.toContain('R01');
    });

    it('a test-only asset is 404 to live keys on every route, and a live-only asset is 404 to test keys', async () => {
      await send(testB, testOnly, risky);
      await send(liveB, liveOnly, risky);
      await settle(testOnly, false);
      await settle(liveOnly, true);
      for (const [key, missing, present] of [
        [liveA, testOnly, liveOnly],
        [liveB, testOnly, liveOnly],
        [testA, liveOnly, testOnly],
        [testB, liveOnly, testOnly],
      ] as const) {
        const enc = encodeURIComponent(missing);
        for (const path of [
          `/v1/assets/${enc}`,
          `/v1/assets/${enc}/findings`,
          `/v1/assets/${enc}/aibom`,
          `/v1/assets/${enc}/aibom?format=spdx_json`,
          `/v1/assets/${enc}/threats`,
        ]) {
          const res = await get(key, path);
          expect({ path, status: res.status }).toEqual({ path, status: 404 });
        }
        const lookup = await get(key, `/v1/assets/lookup?fingerprints[]=${enc}&lookup_name[]=model`);
        expect(lookup.body.data[0]).toMatchObject({ match: 'none', asset: null });
        expect(JSON.stringify(lookup.body.data[1])).not.toContain(missing);
        const list = await get(key, '/v1/assets?limit=100');
        const listed = list.body.data.map((a: { fingerprint: string }) => a.fingerprint);
        expect(listed).toContain(present);
        expect(listed).not.toContain(missing);
        // a cursor of the other mode is unknown
        const cursor = await get(key, `/v1/assets?starting_after=${enc}`);
        expect(cursor.status).toBe(400);
      }
    });

    it('GET /v1/events shows only the key’s mode, and events reach only endpoints of their mode', async () => {
      for (const key of [liveA, testA, liveB, testB]) {
        const events = await get(key, '/v1/events?limit=100');
        expect(events.status).toBe(200);
        expect(events.body.data.length).toBeGreaterThan(0);
        for (const e of events.body.data as Array<{ livemode: boolean; data: { object: { fingerprint?: string } } }>) {
          expect(e.livemode).toBe(livemodeOf(key));
          expect(e.data.object.fingerprint).not.toBe(livemodeOf(key) ? testOnly : liveOnly);
        }
      }
      const deliveries = await waitFor('deliveries of both modes', async () => {
        const rows = await h.ctx.db.prisma.webhookDelivery.findMany({
          select: { event_id: true, endpoint: { select: { livemode: true } } },
        });
        return rows.some((r) => r.endpoint.livemode) && rows.some((r) => !r.endpoint.livemode) ? rows : null;
      });
      // a delivery carries its event's key, not a relation (events are partitioned: docs/scaling.md)
      const events = await h.ctx.db.prisma.event.findMany({
        where: { id: { in: deliveries.map((d) => d.event_id) } },
        select: { id: true, livemode: true },
      });
      const eventMode = new Map(events.map((e) => [e.id, e.livemode]));
      for (const d of deliveries) expect(eventMode.get(d.event_id)).toBe(d.endpoint.livemode);
    });

    it('a test-mode threat re-scores only the test-mode asset; live keys never see it', async () => {
      const liveBefore = await assetOf(liveA, shared);
      const threat = await request(h.app)
        .post('/v1/threats')
        .set('Authorization', `Bearer ${testB}`)
        .set('Idempotency-Key', randomUUID())
        .send({
          category: 'malicious_model',
          title: 'Backdoored fine-tune',
          severity: 'high',
          fingerprints: [shared],
          risk_penalty: 30,
        });
      expect(threat.status).toBe(201);
      await waitFor('the test-mode asset re-scored by the test-mode threat', async () => {
        const a = await assetOf(testB, shared);
        return a.intrinsic_risk_score === 30 ? a : null;
      });
      await settle(shared, false);
      expect(await assetOf(liveA, shared)).toEqual(liveBefore);
      const liveThreats = await get(liveA, `/v1/assets/${encodeURIComponent(shared)}/threats`);
      expect(liveThreats.body.data).toEqual([]);
      const testThreats = await get(testA, `/v1/assets/${encodeURIComponent(shared)}/threats`);
      expect(testThreats.body.data.map((t: { id: string }) => t.id)).toEqual([threat.body.id]);
      expect((await get(liveA, `/v1/threats/${threat.body.id}`)).status).toBe(404);
    });
  });

  describe('no org can lower another org’s risk', () => {
    it("org B's benign manifest leaves org A's findings and score; A replacing its own content lowers it", async () => {
      const fp = 'hf:acme/poisoned-model';
      await send(liveA, fp, risky);
      await settle(fp, true);
      const reported = await assetOf(liveA, fp);
      expect(reported.intrinsic_risk_score).toBeGreaterThanOrEqual(70);
      expect(ruleIds(reported)).toContain('R01');

      // B sends benign content (twice, and in a bulk request) for the same fingerprint
      await send(liveB, fp, benign);
      await settle(fp, true);
      const bulk = await request(h.app)
        .post('/v1/signals/bulk')
        .set('Authorization', `Bearer ${liveB}`)
        .set('Idempotency-Key', randomUUID())
        .send({
          signals: [1, 2].map((i) => ({
            org_id: orgB,
            observed_at: Math.floor(Date.now() / 1000) - i,
            fingerprint: fp,
            asset_type: 'model',
            name: 'acme/model',
            version: `9.${i}`,
            ...benign,
          })),
        });
      expect(bulk.status).toBe(202);
      await drainProjections(h.deps); // the asset follows the bulk 202 (docs/reliability.md "Asset projection")
      await settle(fp, true);
      const afterB = await assetOf(liveB, fp);
      expect(afterB.intrinsic_risk_score).toBe(reported.intrinsic_risk_score);
      expect(ruleIds(afterB)).toContain('R01');
      // the AI-BOM is still built from the riskiest observation (A's): its components list the pickle file
      const bom = await get(liveB, `/v1/assets/${encodeURIComponent(fp)}/aibom`);
      expect(JSON.stringify(bom.body.components)).toMatch(/model\.pkl|pytorch_model\.bin/);

      // A replaces its own observation with benign content: every observation is benign now
      await send(liveA, fp, benign);
      await settle(fp, true);
      const cleaned = await assetOf(liveA, fp);
      expect(cleaned.intrinsic_risk_score).toBe(0);
      expect(ruleIds(cleaned)).not.toContain('R01');
    });

    it('another org can only raise the score', async () => {
      const fp = 'hf:acme/raised-model';
      await send(liveA, fp, benign);
      await settle(fp, true);
      expect((await assetOf(liveA, fp)).intrinsic_risk_score).toBe(0);
      await send(liveB, fp, risky);
      await settle(fp, true);
      const raised = await assetOf(liveA, fp);
      expect(raised.intrinsic_risk_score).toBeGreaterThanOrEqual(70);
      expect(ruleIds(raised)).toContain('R01');
    });

    it('an observation stops counting OBSERVATION_TTL_DAYS after its org last sent it (maintenance re-enriches)', async () => {
      const fp = 'hf:acme/expiring-model';
      await send(liveB, fp, risky);
      await send(liveA, fp, benign);
      await settle(fp, true);
      expect((await assetOf(liveA, fp)).intrinsic_risk_score).toBeGreaterThanOrEqual(70);
      // as if time had passed: the asset was enriched 2 days ago, when B's observation (received TTL-1
      // days before that) still counted; B has sent nothing since, so it is TTL+1 days old now
      const ttl = h.deps.config.OBSERVATION_TTL_DAYS;
      const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000);
      await h.ctx.db.prisma.assetOrg.updateMany({
        where: { livemode: true, fingerprint: fp, org_id: orgB },
        data: { last_seen: daysAgo(ttl + 1) },
      });
      await h.ctx.db.prisma.asset.update({
        where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
        data: { enriched_at: daysAgo(2) },
      });
      const result = await runMaintenance(h.deps);
      expect(result.observations_expired).toBeGreaterThanOrEqual(1);
      await waitFor('re-enrichment without the expired observation', async () => {
        const a = await h.ctx.db.prisma.asset.findUniqueOrThrow({
          where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
        });
        return a.enrichment_status === 'enriched' && a.intrinsic_risk_score === 0 ? a : null;
      });
      expect(ruleIds(await assetOf(liveA, fp))).not.toContain('R01');
      // a second run finds nothing more to expire for this asset
      const again = await runMaintenance(h.deps);
      expect(again.observations_expired).toBe(0);
    });

    it('nothing in a shared asset, its findings, AI-BOM or events says which orgs observed it', async () => {
      const fp = 'hf:acme/poisoned-model';
      const enc = encodeURIComponent(fp);
      for (const key of [liveA, liveB]) {
        const bodies = await Promise.all(
          [
            `/v1/assets/${enc}?expand[]=findings&expand[]=aibom`,
            `/v1/assets/${enc}/findings?limit=100`,
            `/v1/assets/${enc}/aibom`,
            `/v1/assets/${enc}/aibom?format=spdx_json`,
            `/v1/assets/${enc}/aibom?format=spdx_tv`,
            `/v1/assets/lookup?fingerprints[]=${enc}&expand[]=findings`,
            '/v1/events?limit=100',
          ].map(async (path) => {
            const res = await get(key, path);
            expect(res.status).toBe(200);
            return res.text;
          }),
        );
        for (const body of bodies) {
          expect(body).not.toContain(h.orgId);
          expect(body).not.toContain(orgB);
        }
      }
    });
  });
});
