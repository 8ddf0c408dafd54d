import request from 'supertest';
import { buildSarif, buildSpdx3, enrich, spdx3InputFromStored, type StoredComponent } from '@risk/enrichment';
import { checkAgainstSchema } from '@risk/testing';
import { contentDigest } from '../src/domain/signals/ingest-signals';
import { createHarness, postSignal, signalBody, type Harness } from './harness';

// docs/artifacts.md "Judgement": signals name files by hash, bounded and normalised at the door; the SPDX 3.0.1 and
// SARIF exports carry each judged file's hash, verdict and evidence, valid against the published schemas.
const SHA = 'ab'.repeat(32);
let h: Harness;
const auth = () => ({ Authorization: `Bearer ${h.key}` });
beforeAll(async () => {
  h = await createHarness('signal-artifacts');
});
afterAll(() => h.close());

describe('POST /v1/signals with artifacts', () => {
  test('stored and served as sent (hash lower-cased); the digest covers them only when present', async () => {
    const body = signalBody(h.orgId, {
      fingerprint: 'hf:acme/named-files',
      artifacts: [{ path: 'weights/model.bin', sha256: SHA.toUpperCase(), size: 42 }],
    });
    const res = await postSignal(h, body);
    expect(res.status).toBe(202);
    expect(res.body.artifacts).toEqual([{ path: 'weights/model.bin', sha256: SHA, size: 42 }]);
    const got = await request(h.app).get(`/v1/signals/${res.body.id}`).set(auth());
    expect(got.body.artifacts).toEqual([{ path: 'weights/model.bin', sha256: SHA, size: 42 }]);
    // a signal without artifacts keeps the digest it always had; naming one changes it
    const { artifacts: _, ...plain } = body;
    expect(contentDigest(plain as never)).not.toBe(res.body.content_digest);
    expect(contentDigest({ ...plain, artifacts: [] } as never)).toBe(contentDigest(plain as never));
    const without = await postSignal(h, signalBody(h.orgId, { fingerprint: 'hf:acme/no-files' }));
    expect(without.body.artifacts).toBeNull();
  });

  test.each([
    ['a hash that is not 64 hex digits', [{ path: 'a.bin', sha256: 'xyz', size: 1 }], 'artifacts[0].sha256'],
    ['a negative size', [{ path: 'a.bin', sha256: SHA, size: -1 }], 'artifacts[0].size'],
    ['a fractional size', [{ path: 'a.bin', sha256: SHA, size: 1.5 }], 'artifacts[0].size'],
    ['an empty path', [{ path: '', sha256: SHA, size: 1 }], 'artifacts[0].path'],
    ['a path over 1,024 characters', [{ path: 'p'.repeat(1025), sha256: SHA, size: 1 }], 'artifacts[0].path'],
    ['a control character in a path', [{ path: 'a\u0000.bin', sha256: SHA, size: 1 }], 'artifacts[0].path'],
    [
      'a verdict the client claims (unknown field)',
      [{ path: 'a.bin', sha256: SHA, size: 1, verdict: 'benign' }],
      'artifacts[0].verdict',
    ],
    [
      'more than 1,000 artifacts',
      Array.from({ length: 1001 }, (_, k) => ({ path: `f${k}`, sha256: SHA, size: 1 })),
      'artifacts',
    ],
  ])('400 for %s', async (_label, artifacts, param) => {
    const res = await postSignal(h, signalBody(h.orgId, { fingerprint: 'hf:acme/bad-files', artifacts }));
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe(param);
  });
});

describe('judged files in the SPDX 3.0.1 and SARIF exports', () => {
  const result = enrich(
    {
      fingerprint: 'hf:acme/exports',
      asset_type: 'model',
      name: 'acme/exports',
      artifacts: [{ path: 'pytorch_model.bin', sha256: SHA, size: 10 }],
      artifact_verdicts: [
        {
          sha256: SHA,
          verdict: 'malicious',
          format: 'pickle',
          findings: [
            {
              id: 'pickle.dangerous_callable',
              message: 'Loading calls os.system',
              evidence: { callable: 'os.system', offset: 12 },
            },
          ],
          analyser_version: '1.0.0',
          scanned_at: '2026-11-29T10:00:00.000Z',
        },
      ],
    },
    {
      threats: [],
      publisher: { org_count: 1, signal_count: 1, first_seen: '2026-01-01T00:00:00.000Z' },
      now: '2026-11-29T10:00:00.000Z',
    },
  );

  test('SPDX 3.0.1: the file has its sha256 and a review annotation with the verdict; valid', () => {
    const doc = buildSpdx3(
      spdx3InputFromStored(result.aibom.spdx, result.aibom.components as unknown as StoredComponent[]),
    );
    expect(checkAgainstSchema('spdx-3.0.1', doc)).toEqual({ valid: true, errors: [] });
    const graph = doc['@graph'] as Array<Record<string, any>>;
    const file = graph.find((e) => e.type === 'software_File' && e.name === 'pytorch_model.bin');
    expect(file?.verifiedUsing).toEqual([{ type: 'Hash', algorithm: 'sha256', hashValue: SHA }]);
    expect(graph.find((e) => e.type === 'Annotation' && e.subject === file?.spdxId)).toMatchObject({
      annotationType: 'review',
      statement: 'Artifact verdict: malicious (format pickle, analyser 1.0.0).',
    });
  });

  test('SARIF: the artifact finding carries the file, hash, verdict and the callable and offset; valid', () => {
    const log = buildSarif(
      [
        {
          fingerprint: 'hf:acme/exports',
          asset_type: 'model',
          name: 'acme/exports',
          version: null,
          ecosystem: 'huggingface',
          intrinsic_risk_score: result.intrinsic_risk_score,
          intrinsic_risk_severity: result.intrinsic_risk_severity,
          findings: result.findings,
        },
      ],
      { automation_id: 'test/1' },
    );
    expect(checkAgainstSchema('sarif-2.1.0', log)).toEqual({ valid: true, errors: [] });
    const results = (log.runs as Array<{ results: Array<Record<string, any>> }>)[0]!.results;
    const mal = results.find((r) => r.ruleId === 'artifact_malicious');
    expect(mal?.level).toBe('error');
    expect(mal?.locations[0].logicalLocations).toContainEqual(
      expect.objectContaining({ name: 'pytorch_model.bin', kind: 'resource' }),
    );
    expect(mal?.properties.artifact).toMatchObject({
      path: 'pytorch_model.bin',
      sha256: SHA,
      verdict: 'malicious',
      analyser_findings: [{ id: 'pickle.dangerous_callable', callable: 'os.system', offset: 12 }],
    });
  });
});
