import { analyze, enrich, renderSpdxTagValue } from '../src/index';
import { parseSpdxTagValue } from './spdx-tag-value';
import type { EnrichmentInput } from '../src/index';
import type { ArtifactVerdictRecord } from '../src/types';
import { CTX, input } from './helpers';
import { cdxValidator, semanticSpdxProblems, validateSpdx } from './spdx-checks';

// docs/artifacts.md "Judgement": the platform's verdicts for the hashes an asset names decide the artifact findings;
// a pickle without one is judged as before, and what a client says about its own scan changes nothing.
const SHA_BAD = 'a'.repeat(64);
const SHA_OK = 'b'.repeat(64);
const SHA_ODD = 'c'.repeat(64);
const SHA_BROKEN = 'd'.repeat(64);

const verdict = (sha256: string, v: ArtifactVerdictRecord['verdict'], over: Partial<ArtifactVerdictRecord> = {}) =>
  ({
    sha256,
    verdict: v,
    format: 'pytorch_zip',
    findings: [],
    analyser_version: '1.4.0',
    scanned_at: '2026-11-29T10:00:00.000Z',
    ...over,
  }) satisfies ArtifactVerdictRecord;

const MALICIOUS = verdict(SHA_BAD, 'malicious', {
  findings: [
    {
      id: 'pickle.dangerous_callable',
      severity: 'critical',
      verdict: 'malicious',
      message: 'Loading calls posix.system',
      evidence: { callable: 'posix.system', member: 'archive/data.pkl', offset: 57 },
    },
  ],
});

const model = (over: Partial<EnrichmentInput>) =>
  input({ name: 'acme/weights', metadata: { library_name: 'transformers' }, ...over });
const rules = (i: EnrichmentInput) => analyze(i).findings.map((f) => [f.rule_id, f.severity]);

describe('artifact verdicts in judgement', () => {
  it('an unscanned pickle stays "pickle: high" (R01), with or without a hash', () => {
    const named = model({ artifacts: [{ path: 'pytorch_model.bin', sha256: SHA_OK, size: 10 }] });
    expect(rules(named)).toContainEqual(['R01', 'high']);
    expect(rules(model({ metadata: { files: ['pytorch_model.bin'] } }))).toContainEqual(['R01', 'high']);
  });

  it('a malicious file is a critical finding with the path, the hash and the callable, member and offset', () => {
    const a = analyze(
      model({
        artifacts: [{ path: 'pytorch_model.bin', sha256: SHA_BAD, size: 10 }],
        artifact_verdicts: [MALICIOUS],
      }),
    );
    const f = a.findings.find((x) => x.rule_id === 'artifact_malicious');
    expect(f?.severity).toBe('critical');
    expect(f?.title).toBe('File scanned malicious: pytorch_model.bin');
    expect(f?.evidence).toMatchObject({
      path: 'pytorch_model.bin',
      sha256: SHA_BAD,
      verdict: 'malicious',
      analyser_version: '1.4.0',
      analyser_findings: [
        { id: 'pickle.dangerous_callable', callable: 'posix.system', member: 'archive/data.pkl', offset: 57 },
      ],
    });
    expect(
      enrich(model({ artifacts: [{ path: 'x.bin', sha256: SHA_BAD, size: 1 }], artifact_verdicts: [MALICIOUS] }), CTX)
        .intrinsic_risk_severity,
    ).toBe('critical');
  });

  it('suspicious is high, invalid and unscannable are a medium "could not be verified", unsupported adds nothing', () => {
    const i = model({
      artifacts: [
        { path: 'odd.pkl', sha256: SHA_ODD, size: 1 },
        { path: 'broken.pt', sha256: SHA_BROKEN, size: 1 },
        { path: 'README.md', sha256: SHA_OK, size: 1 },
      ],
      artifact_verdicts: [
        verdict(SHA_ODD, 'suspicious', { format: 'pickle' }),
        verdict(SHA_BROKEN, 'invalid', { format: 'pickle' }),
        verdict(SHA_OK, 'unsupported', { format: 'other' }),
      ],
    });
    const r = rules(i);
    expect(r).toContainEqual(['artifact_suspicious', 'high']);
    expect(r).toContainEqual(['artifact_unverified', 'medium']);
    expect(r.filter(([id]) => String(id).startsWith('artifact_'))).toHaveLength(2);
    // neither pickle scanned clean: both stay in R01
    expect(analyze(i).findings.find((f) => f.rule_id === 'R01')?.evidence.files).toEqual(['odd.pkl', 'broken.pt']);
  });

  it('a pickle that scanned benign is a low "pickle format" finding instead of R01 high', () => {
    const r = rules(
      model({
        artifacts: [{ path: 'pytorch_model.bin', sha256: SHA_OK, size: 10 }],
        artifact_verdicts: [verdict(SHA_OK, 'benign')],
      }),
    );
    expect(r).toContainEqual(['pickle_scanned_benign', 'low']);
    expect(r.map(([id]) => id)).not.toContain('R01');
    // metadata.files[].sha256 names the bytes just as well
    const viaFiles = rules(
      model({
        metadata: { files: [{ path: 'pytorch_model.bin', sha256: SHA_OK.toUpperCase() }] },
        artifact_verdicts: [verdict(SHA_OK, 'benign')],
      }),
    );
    expect(viaFiles).toContainEqual(['pickle_scanned_benign', 'low']);
    // one benign pickle beside an unscanned one: R01 keeps the unscanned one only
    const mixed = analyze(
      model({
        artifacts: [
          { path: 'a.bin', sha256: SHA_OK, size: 1 },
          { path: 'b.bin', sha256: SHA_ODD, size: 1 },
        ],
        artifact_verdicts: [verdict(SHA_OK, 'benign')],
      }),
    );
    expect(mixed.findings.find((f) => f.rule_id === 'R01')?.evidence.files).toEqual(['b.bin']);
  });

  it("a client's own scan result never lowers the judgement (the shared verdict comes from the platform only)", () => {
    const claimed = model({
      metadata: {
        files: [{ path: 'pytorch_model.bin', sha256: SHA_BAD, scan: { verdict: 'benign', tool: 'picklescan' } }],
        scan_results: { 'pytorch_model.bin': 'benign' },
      },
    });
    const r = rules(claimed);
    expect(r).toContainEqual(['R01', 'high']);
    expect(r.map(([id]) => id)).not.toContain('pickle_scanned_benign');
  });

  it('findings are capped at 20 files per rule; the last counts the rest', () => {
    const shas = Array.from({ length: 25 }, (_, k) => k.toString(16).padStart(64, '0'));
    const a = analyze(
      model({
        artifacts: shas.map((sha256, k) => ({ path: `f${k}.pkl`, sha256, size: 1 })),
        artifact_verdicts: shas.map((s) => ({ ...MALICIOUS, sha256: s })),
      }),
    );
    const mal = a.findings.filter((f) => f.rule_id === 'artifact_malicious');
    expect(mal).toHaveLength(20);
    expect(mal[19]?.evidence.more_files).toBe(5);
  });
});

describe('artifacts in the AI-BOM', () => {
  const r = enrich(
    model({
      artifacts: [
        { path: 'pytorch_model.bin', sha256: SHA_BAD, size: 10 },
        { path: 'model.safetensors', sha256: SHA_OK, size: 20 },
        { path: 'extra.pkl', sha256: SHA_ODD, size: 1 },
      ],
      artifact_verdicts: [MALICIOUS, verdict(SHA_OK, 'benign', { format: 'safetensors' })],
    }),
    CTX,
  );
  const files = r.aibom.components.filter((c) => c.type === 'file');

  it('every file lists its SHA-256; judged ones their verdict (stored components)', () => {
    expect(files.map((c) => [c.name, c.hashes, c.artifact ?? null])).toEqual([
      [
        'pytorch_model.bin',
        [{ alg: 'SHA-256', content: SHA_BAD }],
        { verdict: 'malicious', format: 'pytorch_zip', analyser_version: '1.4.0' },
      ],
      [
        'model.safetensors',
        [{ alg: 'SHA-256', content: SHA_OK }],
        { verdict: 'benign', format: 'safetensors', analyser_version: '1.4.0' },
      ],
      ['extra.pkl', [{ alg: 'SHA-256', content: SHA_ODD }], null],
    ]);
  });

  it('CycloneDX 1.6: hashes alg SHA-256 and verdict properties; valid', async () => {
    expect(await cdxValidator.validate(JSON.stringify(r.aibom.cyclonedx))).toBeNull();
    const comps = (r.aibom.cyclonedx.components as Array<Record<string, any>>).filter((c) => c.type === 'file');
    const bin = comps.find((c) => c.name === 'pytorch_model.bin');
    expect(bin?.hashes).toEqual([{ alg: 'SHA-256', content: SHA_BAD }]);
    expect(bin?.properties).toEqual([
      { name: 'risk:artifact:verdict', value: 'malicious' },
      { name: 'risk:artifact:format', value: 'pytorch_zip' },
      { name: 'risk:artifact:analyser_version', value: '1.4.0' },
    ]);
    expect(comps.find((c) => c.name === 'extra.pkl')?.properties).toBeUndefined();
  });

  it('SPDX 2.3: checksums SHA256 and a REVIEW annotation with the verdict; valid, and tag-value round-trips', () => {
    expect(validateSpdx(r.aibom.spdx)).toBe(true);
    expect(semanticSpdxProblems(r.aibom.spdx)).toEqual([]);
    const pkgs = r.aibom.spdx.packages as Array<Record<string, any>>;
    const bin = pkgs.find((p) => p.name === 'pytorch_model.bin');
    expect(bin?.checksums).toEqual([{ algorithm: 'SHA256', checksumValue: SHA_BAD }]);
    expect(bin?.annotations).toEqual([
      expect.objectContaining({
        annotationType: 'REVIEW',
        comment: 'Artifact verdict: malicious (format pytorch_zip, analyser 1.4.0).',
      }),
    ]);
    const tv = renderSpdxTagValue(r.aibom.spdx);
    expect(tv).toContain('AnnotationComment: <text>Artifact verdict: malicious');
    expect(parseSpdxTagValue(tv)).toEqual(r.aibom.spdx);
  });

  it('an AI-BOM without verdicts keeps its content hash (no artifact field is added)', () => {
    const plain = enrich(model({ metadata: { files: [{ path: 'model.safetensors', sha256: SHA_OK }] } }), CTX);
    expect(plain.aibom.components.some((c) => 'artifact' in c)).toBe(false);
  });
});
