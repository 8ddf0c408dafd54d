import request from 'supertest';
import { JOBS } from '@risk/common/queue';
import { EXAMPLE_ARTIFACT } from '@risk/contracts';
import { completeArtifactScan } from '@risk/db';
import { startWorker, type RunningWorker } from '../src';
import { createWorkerHarness, waitFor, type WorkerHarness } from './harness';
import { scaledByLoad } from '@risk/testing';

// docs/artifacts.md "Judgement": a signal names a file by hash; unscanned, the pickle is judged by its format (R01);
// when the platform's verdict for those bytes arrives later, the `artifact.verdict_changed` job re-enriches the asset,
// which turns critical and records asset.risk_changed.
const SHA = '5f'.repeat(32);
const OTHER = '6e'.repeat(32);

describe('artifact verdicts re-enrich the assets that name them', () => {
  let h: WorkerHarness;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    h = await createWorkerHarness('artverdict');
    worker = startWorker(h.deps, { maintenance: false });
  });
  afterAll(async () => {
    await worker?.close();
    await h.close();
  });

  const auth = () => ({ Authorization: `Bearer ${h.key}` });
  const findings = (fp: string) =>
    h.ctx.db.prisma.finding.findMany({ where: { livemode: true, fingerprint: fp }, orderBy: { rule_id: 'asc' } });
  const asset = (fp: string) =>
    h.ctx.db.prisma.asset.findUnique({ where: { livemode_fingerprint: { livemode: true, fingerprint: fp } } });

  it('unscanned pickle → high; malicious verdict + job → critical, with evidence and asset.risk_changed', async () => {
    const fp = 'hf:acme/pickled';
    const res = await h.submit({
      fingerprint: fp,
      asset_type: 'model',
      name: 'acme/pickled',
      metadata: { library_name: 'transformers' },
      artifacts: [
        { path: 'pytorch_model.bin', sha256: SHA.toUpperCase(), size: 1234 },
        { path: 'tokenizer.json', sha256: OTHER, size: 10 },
      ],
    });
    expect(res.status).toBe(202);
    // the signal keeps what it named, hashes lower-cased
    expect(res.body.artifacts).toEqual([
      { path: 'pytorch_model.bin', sha256: SHA, size: 1234 },
      { path: 'tokenizer.json', sha256: OTHER, size: 10 },
    ]);
    await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched');
    const before = await findings(fp);
    expect(before.find((f) => f.rule_id === 'R01')?.severity).toBe('high');
    expect(before.filter((f) => f.rule_id.startsWith('artifact_'))).toEqual([]);
    const first = await asset(fp);
    expect(first?.intrinsic_risk_severity).toBe('high');

    // the asset lists what it names; nothing is scanned yet
    const listed = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent(fp)}?expand[]=artifacts`)
      .set(auth());
    expect(listed.status).toBe(200);
    expect(listed.body.artifacts).toEqual([
      { path: 'pytorch_model.bin', sha256: SHA, size: 1234, verdict: null, reported: null },
      { path: 'tokenizer.json', sha256: OTHER, size: 10, verdict: null, reported: null },
    ]);

    // the verdict arrives after the signal: written through the store, announced by the job
    await completeArtifactScan(h.ctx.db.pool, {
      sha256: SHA,
      size: 1234,
      format: 'pytorch_zip',
      verdict: 'malicious',
      // the documented example's finding (a posix.system call in archive/data.pkl)
      findings: EXAMPLE_ARTIFACT.findings,
      facts: {},
      analyser_version: 'test-1',
    });
    await h.producer.enqueueArtifactVerdictChanged([SHA]);

    await waitFor('the asset to turn critical', async () => (await asset(fp))?.intrinsic_risk_severity === 'critical');
    await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched');
    const after = await findings(fp);
    const mal = after.find((f) => f.rule_id === 'artifact_malicious');
    expect(mal?.severity).toBe('critical');
    expect(mal?.evidence).toMatchObject({
      path: 'pytorch_model.bin',
      sha256: SHA,
      verdict: 'malicious',
      analyser_version: 'test-1',
      analyser_findings: EXAMPLE_ARTIFACT.findings.map((f) => f.evidence),
    });
    const events = await h.ctx.db.prisma.event.findMany({
      where: { livemode: true, fingerprint: fp, type: 'asset.risk_changed' },
    });
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events.some((e) => JSON.stringify(e.data).includes('critical'))).toBe(true);

    // the AI-BOM lists the file's hash and verdict
    const bom = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent(fp)}/aibom?format=cyclonedx_json`)
      .set(auth());
    const file = (bom.body.components as Array<Record<string, any>>).find((c) => c.name === 'pytorch_model.bin');
    expect(file?.hashes).toEqual([{ alg: 'SHA-256', content: SHA }]);
    expect(file?.properties).toContainEqual({ name: 'risk:artifact:verdict', value: 'malicious' });
  });

  it('a verdict for a hash no asset names queues nothing; a pickle scanned clean is low', async () => {
    const before = await h.ctx.db.prisma.outboxMessage.count({ where: { kind: 'enrichment' } });
    await completeArtifactScan(h.ctx.db.pool, {
      sha256: '7d'.repeat(32),
      size: 1,
      format: 'pickle',
      verdict: 'benign',
      findings: [],
      facts: {},
      analyser_version: 'test-1',
    });
    await h.producer.enqueueArtifactVerdictChanged(['7d'.repeat(32)]);
    const verdictJobs = h.producer.queue(JOBS.artifactVerdictChanged.queue);
    const ran = await waitFor('the verdict job to complete', async () =>
      (await verdictJobs.getCompleted()).find((j) => (j.data as { sha256s: string[] }).sha256s[0] === '7d'.repeat(32)),
    );
    expect(ran.returnvalue).toEqual({ queued: 0 });
    const fp = 'hf:acme/benign-pickle';
    await completeArtifactScan(h.ctx.db.pool, {
      sha256: '8c'.repeat(32),
      size: 1,
      format: 'pytorch_zip',
      verdict: 'benign',
      findings: [],
      facts: {},
      analyser_version: 'test-1',
    });
    const res = await h.submit({
      fingerprint: fp,
      asset_type: 'model',
      name: 'acme/benign-pickle',
      artifacts: [{ path: 'pytorch_model.bin', sha256: '8c'.repeat(32), size: 1 }],
    });
    expect(res.status).toBe(202);
    await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched');
    // a pickle that scanned clean is the low "pickle format" finding, not R01 high
    const rules = (await findings(fp)).map((f) => [f.rule_id, f.severity]);
    expect(rules).toContainEqual(['pickle_scanned_benign', 'low']);
    expect(rules.map(([r]) => r)).not.toContain('R01');
    const after = await h.ctx.db.prisma.outboxMessage.count({ where: { kind: 'enrichment' } });
    expect(after - before).toBe(1); // the signal's own enrichment only
  });
});

describe('a verdict made while the asset is being enriched', () => {
  let h: WorkerHarness;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    // the job waits this long between its analysis and its write, and the verdict lands in between; one enrichment at
    // a time, so the job the verdict queues runs after that write and finds its digest enriched: only the job's own
    // check after its write can catch the verdict
    // the pause and the sleep below are stretched by the machine's load, so the verdict still lands inside the pause
    const delay = String(scaledByLoad(3000));
    h = await createWorkerHarness('artverdictrace', { ENRICHMENT_TEST_DELAY_MS: delay, ENRICHMENT_CONCURRENCY: '1' });
    worker = startWorker(h.deps, { maintenance: false });
  });
  afterAll(async () => {
    await worker?.close();
    await h.close();
  });

  it(
    'is caught after the write: the asset is enriched again and turns critical',
    async () => {
      const fp = 'hf:acme/raced';
      const sha = '4b'.repeat(32);
      const res = await h.submit({
        fingerprint: fp,
        asset_type: 'model',
        name: 'acme/raced',
        artifacts: [{ path: 'model.ckpt', sha256: sha, size: 5 }],
      });
      expect(res.status).toBe(202);
      // the job has read the (absent) verdict and waits before its write
      const enrichments = h.producer.queue(JOBS.enrichment.queue);
      await waitFor('the enrichment job to be active', async () => (await enrichments.getActive()).length > 0);
      await new Promise((r) => setTimeout(r, scaledByLoad(500)));
      await completeArtifactScan(h.ctx.db.pool, {
        sha256: sha,
        size: 5,
        format: 'pickle',
        verdict: 'malicious',
        findings: [
          { id: 'pickle.dangerous_callable', message: 'Loading calls os.system', evidence: { callable: 'os.system' } },
        ],
        facts: {},
        analyser_version: 'test-1',
      });
      await h.producer.enqueueArtifactVerdictChanged([sha]);
      const severity = async () =>
        (
          await h.ctx.db.prisma.asset.findUnique({
            where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
          })
        )?.intrinsic_risk_severity;
      await waitFor('the asset to turn critical', async () => (await severity()) === 'critical', 30_000);
      const rules = await h.ctx.db.prisma.finding.findMany({ where: { livemode: true, fingerprint: fp } });
      expect(rules.map((f) => f.rule_id)).toContain('artifact_malicious');
    },
    scaledByLoad(60_000),
  );
});
