import { JOBS } from '@risk/common/queue';
import request from 'supertest';
import { startWorker, type RunningWorker } from '../src';
import { scaledByLoad } from '@risk/testing';
import { createWorkerHarness, modelCardManifest, waitFor, type WorkerHarness } from './harness';

describe('enrichment worker (real queue, real database)', () => {
  let h: WorkerHarness;
  let worker: RunningWorker;

  beforeAll(async () => {
    h = await createWorkerHarness('enrich');
    worker = startWorker(h.deps, { maintenance: false });
  });
  afterAll(async () => {
    await worker.close();
    await h.close();
  });

  const fp = 'hf:acme/llama-2-7b-alpaca';
  /** a signal for the test's model; `over` changes the release (version, weight files) */
  const submitModel = (over: { version?: string; files?: string[] } = {}) =>
    h.submit({
      fingerprint: fp,
      asset_type: 'model',
      name: 'acme/llama-2-7b-alpaca',
      version: over.version ?? '1.0',
      raw_manifest: modelCardManifest(),
      metadata: { files: over.files ?? ['model.safetensors', 'config.json'] },
    });

  it('enriches a submitted signal and every asset route serves the result', async () => {
    const res = await submitModel();
    expect(res.status).toBe(202);
    expect(res.body.enrichment.status).toBe('queued');
    await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched');

    const auth = { Authorization: `Bearer ${h.key}` };
    const enc = encodeURIComponent(fp);
    const asset = await request(h.app).get(`/v1/assets/${enc}?expand[]=findings&expand[]=aibom`).set(auth);
    expect(asset.status).toBe(200);
    expect(asset.body.enrichment_status).toBe('enriched');
    expect(asset.body.intrinsic_risk_score).toBeGreaterThan(0);
    expect(asset.body.findings.length).toBeGreaterThan(0);
    expect(asset.body.findings.map((f: { rule_id: string }) => f.rule_id)).toEqual(
      expect.arrayContaining([expect.any(String)]),
    );
    const contributions = asset.body.findings.reduce(
      (s: number, f: { score_contribution: number }) => s + f.score_contribution,
      0,
    );
    expect(Math.round(contributions)).toBe(asset.body.intrinsic_risk_score);
    expect(asset.body.publisher_trust).toMatchObject({ publisher: expect.any(String) });

    const findings = await request(h.app).get(`/v1/assets/${enc}/findings`).set(auth);
    expect(findings.status).toBe(200);
    expect(findings.body.object).toBe('list');
    expect(findings.body.data.length).toBe(asset.body.findings.length);

    const bom = await request(h.app).get(`/v1/assets/${enc}/aibom`).set(auth);
    expect(bom.status).toBe(200);
    expect(bom.body.bom_version).toBe(1);
    expect(bom.body.lineage).not.toBeNull();
    const spdx = await request(h.app).get(`/v1/assets/${enc}/aibom?format=spdx_json`).set(auth);
    expect(spdx.headers['content-type']).toMatch(/application\/spdx\+json/);
    expect(spdx.body.spdxVersion).toBe('SPDX-2.3');
    const tv = await request(h.app).get(`/v1/assets/${enc}/aibom?format=spdx_tv`).set(auth);
    expect(tv.headers['content-type']).toMatch(/text\/plain/);
    expect(tv.text).toMatch(/^SPDXVersion: SPDX-2\.3/m);
    const cdx = await request(h.app).get(`/v1/assets/${enc}/aibom?format=cyclonedx_json`).set(auth);
    expect(cdx.status).toBe(200);
    expect(cdx.headers['content-type']).toMatch(/application\/vnd\.cyclonedx\+json/);
    expect(cdx.body).toMatchObject({
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      metadata: { component: { type: 'machine-learning-model', modelCard: expect.any(Object) } },
    });
    const threats = await request(h.app).get(`/v1/assets/${enc}/threats`).set(auth);
    expect(threats.status).toBe(200);
    expect(threats.body.data).toEqual([]);

    // what the engine derived, as served: lineage, the dataset, findings with ATLAS ids, trust
    expect(bom.body.lineage).toMatchObject({
      base_models: [{ id: 'meta-llama/Llama-2-7b-hf', relation: 'finetune' }],
      datasets: ['tatsu-lab/alpaca'],
    });
    expect(spdx.body.relationships).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ relationshipType: 'DESCRIBES', spdxElementId: 'SPDXRef-DOCUMENT' }),
        expect.objectContaining({ relationshipType: 'DESCENDANT_OF' }),
        expect.objectContaining({ relationshipType: 'DEPENDS_ON', comment: expect.stringMatching(/trainedOn/) }),
      ]),
    );
    // apache-2.0 on a Llama 2 fine-tune: the derivative's licence conflicts with the base model's (R11)
    const r11 = asset.body.findings.find((f: { rule_id: string }) => f.rule_id === 'R11');
    expect(r11).toMatchObject({ severity: 'medium', attack_techniques: ['AML.T0010.003'] });

    // the list and lookup routes carry the same enrichment
    const list = await request(h.app)
      .get('/v1/assets?enrichment_status=enriched&asset_type=model&expand[]=findings')
      .set(auth);
    expect(list.status).toBe(200);
    const listed = list.body.data.find((a: { fingerprint: string }) => a.fingerprint === fp);
    expect(listed).toMatchObject({
      intrinsic_risk_score: asset.body.intrinsic_risk_score,
      intrinsic_risk_severity: asset.body.intrinsic_risk_severity,
    });
    expect(listed.findings).toHaveLength(asset.body.findings.length);
    const bySeverity = await request(h.app)
      .get(`/v1/assets?intrinsic_risk_severity=${asset.body.intrinsic_risk_severity}`)
      .set(auth);
    expect(bySeverity.body.data.map((a: { fingerprint: string }) => a.fingerprint)).toContain(fp);
    // lookup by name relies on the normalized name and ecosystem the enrichment wrote
    const lookup = await request(h.app)
      .get('/v1/assets/lookup?lookup_name=Llama_2.7b.Alpaca&lookup_ecosystem=huggingface&expand[]=aibom')
      .set(auth);
    expect(lookup.status).toBe(200);
    expect(lookup.body.data[0]).toMatchObject({
      match: 'exact',
      asset: { fingerprint: fp, intrinsic_risk_score: asset.body.intrinsic_risk_score, aibom: { bom_version: 1 } },
    });

    const events = await h.ctx.db.prisma.event.findMany({ where: { fingerprint: fp }, orderBy: { id: 'asc' } });
    expect(events.map((e) => e.type)).toEqual(['asset.created', 'asset.enriched']);
  });

  it('does not enrich the same digest twice and keeps the AI-BOM version', async () => {
    const asset = await h.ctx.db.prisma.asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
    });
    // a duplicate job for the enriched digest, as a crash-and-retry would produce
    await h.producer
      .queue(JOBS.enrichment.queue)
      .add('enrich', { fingerprint: fp, digest: asset.latest_digest, reason: 'retry' });
    const res = await submitModel();
    expect(res.status).toBe(202);
    expect(res.body.enrichment).toEqual({ status: 'skipped', reason: 'up_to_date' });
    // time for a duplicate run to show up, longer on a busy machine
    await new Promise((r) => setTimeout(r, scaledByLoad(500)));
    expect(await h.ctx.db.prisma.aiBom.count({ where: { fingerprint: fp } })).toBe(1);
    expect(await h.ctx.db.prisma.event.count({ where: { fingerprint: fp, type: 'asset.enriched' } })).toBe(1);
  });

  it('re-enriches changed content, bumps bom_version and records asset.risk_changed', async () => {
    const before = await h.ctx.db.prisma.asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
    });
    // the new release ships pickle weights: unsafe deserialization raises the risk
    const res = await submitModel({ version: '1.1', files: ['pytorch_model.bin', 'model.ckpt'] });
    expect(res.body.enrichment.status).toBe('queued');
    await h.waitForAsset(
      fp,
      // the asset's digest covers every org's latest observation (docs/security.md), so the job to wait
      // for is the one of the asset's current digest
      (a) => a.enrichment_status === 'enriched' && a.enriched_digest === a.latest_digest,
    );
    const after = await h.ctx.db.prisma.asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
    });
    expect(after.intrinsic_risk_score).toBeGreaterThan(before.intrinsic_risk_score!);
    const boms = await h.ctx.db.prisma.aiBom.findMany({ where: { fingerprint: fp }, orderBy: { bom_version: 'asc' } });
    expect(boms.map((b) => b.bom_version)).toEqual([1, 2]);
    expect(after.current_aibom_id).toBe(boms[1]!.id);
    const changed = await h.ctx.db.prisma.event.findFirstOrThrow({
      where: { fingerprint: fp, type: 'asset.risk_changed' },
    });
    expect(changed.data).toMatchObject({ previous_attributes: { intrinsic_risk_score: before.intrinsic_risk_score } });
    const findings = await h.ctx.db.prisma.finding.findMany({ where: { fingerprint: fp } });
    expect(JSON.stringify(findings)).toMatch(/pickle/i);
  });

  it('a threat created after enrichment raises the score and shows as a finding', async () => {
    const before = await h.ctx.db.prisma.asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
    });
    const threat = await request(h.app)
      .post('/v1/threats')
      .set('Authorization', `Bearer ${h.key}`)
      .set('Idempotency-Key', crypto.randomUUID())
      .send({
        category: 'malicious_model',
        title: 'Backdoored fine-tune',
        severity: 'high',
        fingerprints: [fp],
        risk_penalty: 25,
      });
    expect(threat.status).toBe(201);
    await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched');
    const after = await waitFor(
      'the threat to change the score',
      async () => {
        const asset = await h.ctx.db.prisma.asset.findUniqueOrThrow({
          where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
        });
        return asset.intrinsic_risk_score !== before.intrinsic_risk_score && asset;
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    expect(after.intrinsic_risk_score).toBeGreaterThan(before.intrinsic_risk_score!);
    const findings = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent(fp)}/findings?expand[]=threats`)
      .set('Authorization', `Bearer ${h.key}`);
    const linked = findings.body.data.find((f: { threats: Array<{ id: string }> }) =>
      f.threats.some((t) => t.id === threat.body.id),
    );
    expect(linked).toBeDefined();
    expect(linked.score_contribution).toBeGreaterThan(0);
    const threats = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent(fp)}/threats`)
      .set('Authorization', `Bearer ${h.key}`);
    expect(threats.body.data.map((t: { id: string }) => t.id)).toEqual([threat.body.id]);
  });
});
