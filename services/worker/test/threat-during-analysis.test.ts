import { randomUUID } from 'node:crypto';
import { JOBS } from '@risk/common/queue';
import request from 'supertest';
import { startWorker, type RunningWorker } from '../src';
import { analyseAsset, writeAnalysed } from '../src/jobs/enrichment';
import { createWorkerHarness, modelCardManifest, type WorkerHarness } from './harness';
import { scaledByLoad } from '@risk/testing';

// docs/security.md, "Analysis under a budget": the engine runs without the asset's row lock, on threats
// read before it. A threat created while an analysis runs must still end up in the asset's findings.
describe('a threat created while the asset is being analysed', () => {
  let h: WorkerHarness;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    h = await createWorkerHarness('threatrace');
  });
  afterAll(async () => {
    await worker?.close();
    await h.close();
  });

  it(
    'leaves the asset stale with one more job queued, which applies the threat',
    async () => {
      const fp = 'hf:race/model';
      const res = await h.submit({
        fingerprint: fp,
        asset_type: 'model',
        name: 'race/model',
        raw_manifest: modelCardManifest(),
      });
      expect(res.status).toBe(202);
      const asset = await h.ctx.db.prisma.asset.findUniqueOrThrow({
        where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
      });

      // the job is held between its analysis and its write (analyseAsset, then writeAnalysed): the threat is
      // created after the job read the threats and before it writes, in the test's order, not the machine's
      const held = await analyseAsset(h.deps, { livemode: true, fingerprint: fp, digest: asset.latest_digest });
      if ('outcome' in held) throw new Error(`the job skipped: ${held.reason}`);
      const threat = await request(h.app)
        .post('/v1/threats')
        .set('Authorization', `Bearer ${h.key}`)
        .set('Idempotency-Key', randomUUID())
        .send({
          category: 'model_backdoor',
          title: 'Backdoored weights',
          severity: 'high',
          fingerprints: [fp],
          risk_penalty: 30,
        });
      expect(threat.status).toBe(201);
      const outcome = await writeAnalysed(h.deps, held);
      expect(outcome.outcome).toBe('enriched');

      // the result without the threat is kept as the last good one, but the asset is not "enriched"
      const after = await h.ctx.db.prisma.asset.findUniqueOrThrow({
        where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
      });
      expect(after.enrichment_status).toBe('stale');

      // the queued re-enrichment (outbox → queue) applies the threat
      worker = startWorker(h.deps, { maintenance: false });
      await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched', 20_000);
      const findings = await h.ctx.db.prisma.finding.findMany({
        where: { livemode: true, fingerprint: fp, rule_id: 'threat_match' },
      });
      expect(findings.flatMap((f) => f.threat_ids)).toEqual([threat.body.id]);
      const jobs = await h.producer.queue(JOBS.enrichment.queue).getCompleted();
      expect(jobs.length).toBeGreaterThanOrEqual(1);
    },
    scaledByLoad(60_000),
  );
});
