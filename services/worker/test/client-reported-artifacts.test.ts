import request from 'supertest';
import { mintApiKey } from '@risk/common/api-keys';
import { JOBS } from '@risk/common/queue';
import { SCOPES } from '@risk/contracts';
import { completeArtifactScan } from '@risk/db';
import { checkAgainstSchema, validateCycloneDx } from '@risk/testing';
import { startWorker, type RunningWorker } from '../src';
import { createWorkerHarness, waitFor, type WorkerHarness } from './harness';

// docs/artifacts.md "Client-reported scan results": a scan result a client reports itself (artifacts[].reported) counts
// only in that org's own view of the asset, only to raise, and only while the platform has no verdict of its own; it
// never reaches the verdict shared by hash, nor another org that names the same bytes.
const X = '3a'.repeat(32); // never uploaded: only org A's scanner judged it
const Y = '4b'.repeat(32); // the platform scanned it malicious

const REPORTED_MALICIOUS = {
  verdict: 'malicious',
  analyser: 'risk-scan',
  analyser_version: '1.2.0',
  findings: [
    {
      id: 'pickle.dangerous_callable',
      message: 'Loading calls posix.system',
      severity: 'critical',
      evidence: { callable: 'posix.system', member: 'archive/data.pkl', offset: 98 },
    },
  ],
};

describe('client-reported scan results', () => {
  let h: WorkerHarness;
  let worker: RunningWorker | undefined;
  let keyB: string;
  const orgB = 'org_clientreportedb';

  beforeAll(async () => {
    h = await createWorkerHarness('clientreported');
    worker = startWorker(h.deps, { maintenance: false });
    keyB = (await mintApiKey(h.ctx.db.prisma, { org_id: orgB, scopes: [...SCOPES], livemode: true })).key;
  });
  afterAll(async () => {
    await worker?.close();
    await h.close();
  });

  const get = (path: string, key: string) =>
    request(h.app)
      .get(path)
      .set({ Authorization: `Bearer ${key}` });
  const view = async (fp: string, key: string) => {
    const res = await get(`/v1/assets/${encodeURIComponent(fp)}?expand[]=findings&expand[]=artifacts`, key);
    expect(res.status).toBe(200);
    return res.body as {
      intrinsic_risk_severity: string;
      findings: Array<Record<string, any>>;
      artifacts: Array<Record<string, any>>;
    };
  };
  const sarifResults = async (fp: string, key: string) => {
    const res = await get(`/v1/assets/${encodeURIComponent(fp)}/findings?format=sarif`, key);
    expect(res.status).toBe(200);
    return (JSON.parse(res.text).runs[0].results as Array<Record<string, any>>).map((r) => ({
      ruleId: r.ruleId as string,
      artifact: r.properties.artifact as Record<string, unknown> | undefined,
    }));
  };
  const storedFindings = (fp: string) =>
    h.ctx.db.prisma.finding.findMany({ where: { livemode: true, fingerprint: fp } });
  const settled = async (fp: string, n: number) => {
    // both orgs' observations are in the enriched set (the report rows are rebuilt by that enrichment)
    await waitFor('the asset to be enriched with every observation', async () => {
      const a = await h.ctx.db.prisma.asset.findUnique({
        where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
        include: { orgs: true },
      });
      if (!(a?.enrichment_status === 'enriched' && a.enriched_digest === a.latest_digest && a.orgs.length === n))
        return false;
      // and nothing left to run: a job that raced the last signal may re-enrich once more (new finding ids), and the
      // walks below use finding ids as cursors
      const counts = await h.producer
        .queue(JOBS.enrichment.queue)
        .getJobCounts('active', 'waiting', 'delayed', 'prioritized');
      const queued = Object.values(counts).reduce((x, y) => x + y, 0);
      const outbox = await h.ctx.db.prisma.outboxMessage.count({
        where: { kind: 'enrichment', processed_at: null, dead_lettered_at: null },
      });
      return queued === 0 && outbox === 0;
    });
  };

  it('org A reports malicious: only A sees a client-reported finding; B and the shared verdict see nothing', async () => {
    const fp = 'hf:acme/reported-pickle';
    const a = await h.submit({
      fingerprint: fp,
      asset_type: 'model',
      name: 'acme/reported-pickle',
      artifacts: [{ path: 'pytorch_model.bin', sha256: X, size: 10, reported: REPORTED_MALICIOUS }],
    });
    expect(a.status).toBe(202);
    // A's own signal keeps what it reported
    expect(a.body.artifacts[0].reported).toEqual(REPORTED_MALICIOUS);
    // B signals while A's first enrichment may still run: an out-of-date job never overwrites the newer one's result
    // nor leaves the asset stale (docs/reliability.md "Out-of-date writers")
    const b = await h.submit(
      {
        org_id: orgB,
        fingerprint: fp,
        asset_type: 'model',
        name: 'acme/reported-pickle',
        artifacts: [{ path: 'pytorch_model.bin', sha256: X, size: 10 }],
      },
      keyB,
    );
    expect(b.status).toBe(202);
    await settled(fp, 2);

    // A's view: the file's own report beside the platform's (absent) verdict, and a critical finding marked
    // client_reported that the score does not count
    const va = await view(fp, h.key);
    expect(va.artifacts).toEqual([
      {
        path: 'pytorch_model.bin',
        sha256: X,
        size: 10,
        verdict: null,
        reported: { ...REPORTED_MALICIOUS, counts: true },
      },
    ]);
    const reported = va.findings.filter((f) => f.rule_id === 'artifact_reported_malicious');
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({
      severity: 'critical',
      counts_toward_effective_score: false,
      score_contribution: 0,
      evidence: {
        source: 'client_reported',
        path: 'pytorch_model.bin',
        sha256: X,
        verdict: 'malicious',
        analyser: 'risk-scan',
        analyser_version: '1.2.0',
        platform_verdict: null,
        analyser_findings: [
          {
            id: 'pickle.dangerous_callable',
            message: 'Loading calls posix.system',
            callable: 'posix.system',
            member: 'archive/data.pkl',
            offset: 98,
          },
        ],
      },
    });
    // the unscanned pickle is still "pickle: high" (R01) for everyone: the shared findings hold no client claim
    expect(va.findings.find((f) => f.rule_id === 'R01')?.severity).toBe('high');
    const shared = await storedFindings(fp);
    expect(shared.some((f) => f.rule_id.startsWith('artifact_'))).toBe(false);
    expect(JSON.stringify(shared.map((f) => f.evidence))).not.toContain('client_reported');
    expect(va.intrinsic_risk_severity).toBe('high');

    // B names the same bytes on the same asset and sees none of A's report
    const vb = await view(fp, keyB);
    expect(vb.artifacts).toEqual([{ path: 'pytorch_model.bin', sha256: X, size: 10, verdict: null, reported: null }]);
    expect(vb.findings.some((f) => String(f.rule_id).startsWith('artifact_reported'))).toBe(false);
    expect(JSON.stringify(vb)).not.toContain('risk-scan');

    // the findings list holds it in A's view only: walked one item a page, every finding comes once, both ways
    const walk = async (key: string) => {
      const ids: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 50; i++) {
        const q = `limit=1${cursor ? `&starting_after=${cursor}` : ''}`;
        const res = await get(`/v1/assets/${encodeURIComponent(fp)}/findings?${q}`, key);
        expect(res.status).toBe(200);
        ids.push(...res.body.data.map((f: { id: string }) => f.id));
        if (!res.body.has_more) break;
        cursor = res.body.data.at(-1).id;
      }
      return ids;
    };
    const listedA = await walk(h.key);
    expect(listedA).toContain(`crf_${X}`);
    expect(new Set(listedA).size).toBe(listedA.length);
    expect(listedA.length).toBe(va.findings.length);
    const one = await get(`/v1/assets/${encodeURIComponent(fp)}/findings?limit=100`, h.key);
    expect(one.body.data.find((f: { id: string }) => f.id === `crf_${X}`)).toEqual(reported[0]);
    const listedB = await walk(keyB);
    expect(listedB.some((id) => id.startsWith('crf_'))).toBe(false);
    expect(listedB.length).toBe(listedA.length - 1);
    // and backwards from the last item, one a page with ending_before: the same items in reverse
    const back: string[] = [];
    let before = listedA.at(-1)!;
    for (let i = 0; i < 50; i++) {
      const res = await get(`/v1/assets/${encodeURIComponent(fp)}/findings?limit=1&ending_before=${before}`, h.key);
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 200, error: undefined });
      if (res.body.data.length === 0) break;
      before = res.body.data[0].id;
      back.push(before);
      if (!res.body.has_more) break;
    }
    expect(back).toEqual(listedA.slice(0, -1).reverse());

    // SARIF: A's log carries the client-reported result, marked; B's does not
    const sa = await sarifResults(fp, h.key);
    expect(sa).toContainEqual({
      ruleId: 'artifact_reported_malicious',
      artifact: expect.objectContaining({ source: 'client_reported', sha256: X, analyser: 'risk-scan' }),
    });
    expect((await sarifResults(fp, keyB)).some((r) => r.ruleId.startsWith('artifact_reported'))).toBe(false);

    // the AI-BOM in every format: A's states its own verdict for the file, marked as the client's; B's does not
    const bom = (format: string, key: string) =>
      get(`/v1/assets/${encodeURIComponent(fp)}/aibom?format=${format}`, key);
    const jsonA = (await bom('json', h.key)).body;
    const fileA = (jsonA.components as Array<Record<string, any>>).find((c) => c.name === 'pytorch_model.bin');
    expect(fileA?.client_reported).toEqual({ verdict: 'malicious', analyser: 'risk-scan', analyser_version: '1.2.0' });
    const jsonB = (await bom('json', keyB)).body;
    expect(jsonB.content_hash).toBe(jsonA.content_hash);
    expect(JSON.stringify(jsonB)).not.toContain('client_reported');
    const cdxA = (await bom('cyclonedx_json', h.key)).body;
    expect(validateCycloneDx(cdxA)).toBe(true);
    const cdxFile = (cdxA.components as Array<Record<string, any>>).find((c) => c.name === 'pytorch_model.bin');
    expect(cdxFile?.hashes).toEqual([{ alg: 'SHA-256', content: X }]);
    expect(cdxFile?.properties).toContainEqual({ name: 'risk:client_reported:verdict', value: 'malicious' });
    expect(JSON.stringify((await bom('cyclonedx_json', keyB)).body)).not.toContain('client_reported');
    const spdxA = (await bom('spdx_json', h.key)).body;
    const pkgA = (spdxA.packages as Array<Record<string, any>>).find((p) => p.name === 'pytorch_model.bin');
    expect(pkgA?.annotations).toContainEqual(
      expect.objectContaining({ annotationType: 'OTHER', annotator: 'Tool: risk-scan-1.2.0' }),
    );
    expect(JSON.stringify((await bom('spdx_json', keyB)).body)).not.toContain('Client-reported');
    expect((await bom('spdx_tv', h.key)).text).toContain('Client-reported verdict: malicious');
    expect((await bom('spdx_tv', keyB)).text).not.toContain('Client-reported');
    const spdx3A = (await bom('spdx3_json', h.key)).body;
    expect(checkAgainstSchema('spdx-3.0.1', spdx3A)).toEqual({ valid: true, errors: [] });
    expect(JSON.stringify(spdx3A)).toContain('Client-reported verdict: malicious');
    expect(JSON.stringify((await bom('spdx3_json', keyB)).body)).not.toContain('Client-reported');

    // the shared verdict of the hash never reflects it, for either org
    for (const key of [h.key, keyB]) {
      expect((await get(`/v1/artifacts/${X}`, key)).status).toBe(404);
      const lookup = await get(`/v1/artifacts/lookup?sha256s=${X}`, key);
      expect(lookup.status).toBe(200);
      expect(lookup.body.data).toEqual([expect.objectContaining({ sha256: X, artifact: null })]);
    }
    expect(await h.ctx.db.prisma.artifact.count({ where: { sha256: X } })).toBe(0);

    // A's next signal reports nothing: its earlier claim no longer counts
    await h.submit({
      fingerprint: fp,
      asset_type: 'model',
      name: 'acme/reported-pickle',
      artifacts: [{ path: 'pytorch_model.bin', sha256: X, size: 10 }],
    });
    await settled(fp, 2);
    const again = await view(fp, h.key);
    expect(again.artifacts[0]?.reported).toBeNull();
    expect(again.findings.some((f) => String(f.rule_id).startsWith('artifact_reported'))).toBe(false);
  });

  it('a client-reported benign never overrides the platform: the platform verdict wins both ways', async () => {
    const fp = 'hf:acme/whitewash';
    await completeArtifactScan(h.ctx.db.pool, {
      sha256: Y,
      size: 20,
      format: 'pickle',
      verdict: 'malicious',
      findings: [
        {
          id: 'pickle.dangerous_callable',
          severity: 'critical',
          verdict: 'malicious',
          message: 'Loading calls os.system',
          evidence: { callable: 'os.system', offset: 7 },
        },
      ],
      facts: {},
      analyser_version: 'test-1',
    });
    const res = await h.submit({
      fingerprint: fp,
      asset_type: 'model',
      name: 'acme/whitewash',
      artifacts: [
        // the platform found it malicious; the client claims benign
        {
          path: 'model.pkl',
          sha256: Y,
          size: 20,
          reported: { verdict: 'benign', analyser: 'other-scanner', analyser_version: '0.1' },
        },
        // never scanned by the platform; the client claims benign: it stays an unscanned pickle
        {
          path: 'pytorch_model.bin',
          sha256: X,
          size: 10,
          reported: { verdict: 'benign', analyser: 'other-scanner', analyser_version: '0.1' },
        },
      ],
    });
    expect(res.status).toBe(202);
    await settled(fp, 1);
    const v = await view(fp, h.key);
    expect(v.findings.find((f) => f.rule_id === 'artifact_malicious')).toMatchObject({
      severity: 'critical',
      evidence: { sha256: Y, verdict: 'malicious' },
    });
    expect(v.findings.find((f) => f.rule_id === 'R01')?.severity).toBe('high');
    expect(v.findings.some((f) => f.rule_id === 'pickle_scanned_benign')).toBe(false);
    expect(v.findings.some((f) => String(f.rule_id).startsWith('artifact_reported'))).toBe(false);
    expect(v.intrinsic_risk_severity).toBe('critical');
    const bySha = new Map(v.artifacts.map((a) => [a.sha256, a]));
    expect(bySha.get(Y)).toMatchObject({ verdict: 'malicious', reported: { verdict: 'benign', counts: false } });
    expect(bySha.get(X)).toMatchObject({ verdict: null, reported: { verdict: 'benign', counts: false } });

    // and a client's malicious claim on bytes the platform scanned benign is outranked too
    const fp2 = 'hf:acme/platform-benign';
    await completeArtifactScan(h.ctx.db.pool, {
      sha256: '5c'.repeat(32),
      size: 5,
      format: 'safetensors',
      verdict: 'benign',
      findings: [],
      facts: {},
      analyser_version: 'test-1',
    });
    await h.submit({
      fingerprint: fp2,
      asset_type: 'model',
      name: 'acme/platform-benign',
      artifacts: [{ path: 'model.safetensors', sha256: '5c'.repeat(32), size: 5, reported: REPORTED_MALICIOUS }],
    });
    await settled(fp2, 1);
    const v2 = await view(fp2, h.key);
    expect(v2.artifacts[0]).toMatchObject({ verdict: 'benign', reported: { verdict: 'malicious', counts: false } });
    expect(v2.findings.some((f) => String(f.rule_id).startsWith('artifact_reported'))).toBe(false);
  });

  it.each([
    ['a verdict outside the list', { ...REPORTED_MALICIOUS, verdict: 'clean' }, 'artifacts[0].reported.verdict'],
    ['no analyser', { verdict: 'malicious', analyser_version: '1' }, 'artifacts[0].reported.analyser'],
    ['an unknown field', { ...REPORTED_MALICIOUS, score: 0 }, 'artifacts[0].reported.score'],
    [
      'more than 10 findings',
      { ...REPORTED_MALICIOUS, findings: Array.from({ length: 11 }, () => REPORTED_MALICIOUS.findings[0]) },
      'artifacts[0].reported.findings',
    ],
    [
      'a control character in an analyser name',
      { ...REPORTED_MALICIOUS, analyser: 'risk\u0000scan' },
      'artifacts[0].reported.analyser',
    ],
    [
      'a negative offset',
      {
        ...REPORTED_MALICIOUS,
        findings: [{ id: 'x', message: 'y', evidence: { offset: -1 } }],
      },
      'artifacts[0].reported.findings[0].evidence.offset',
    ],
  ])('400 for %s, and nothing is stored', async (_label, reported, param) => {
    const fp = 'hf:acme/bad-report';
    const signalsBefore = await h.ctx.db.prisma.signal.count();
    const res = await h.submit({
      fingerprint: fp,
      asset_type: 'model',
      artifacts: [{ path: 'model.bin', sha256: X, size: 1, reported }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', param });
    expect(await h.ctx.db.prisma.signal.count()).toBe(signalsBefore);
    expect(
      await h.ctx.db.prisma.asset.findUnique({ where: { livemode_fingerprint: { livemode: true, fingerprint: fp } } }),
    ).toBeNull();
    expect(await h.ctx.db.prisma.assetOrgArtifactReport.count({ where: { fingerprint: fp } })).toBe(0);
  });
});
