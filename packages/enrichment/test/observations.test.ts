import { analyze, enrich, enrichObservations, analyzeObservations, mergeAnalyses, primaryAnalysis } from '../src/index';
import { CTX, input } from './helpers';

// A Hugging Face model card (front matter + body, the shape of the samples in fixtures/) observed by
// several orgs: one lists pickle weights (R01, high), another only safetensors (benign).
const card = ['---', 'license: apache-2.0', 'library_name: transformers', '---', '# acme/m', 'Fine-tuned.'].join('\n');
const risky = input({ name: 'acme/m', raw_manifest: card, metadata: { files: ['model.pkl', 'pytorch_model.bin'] } });
const benign = input({ name: 'acme/m', raw_manifest: card, metadata: { files: ['model.safetensors'] } });
const remoteCode = input({ name: 'acme/m', raw_manifest: `${card}\nLoad with trust_remote_code=True` });

describe('enrichObservations: several orgs observe one asset', () => {
  it('with one observation it is enrich()', () => {
    expect(enrichObservations([risky], CTX)).toEqual(enrich(risky, CTX));
  });

  it("a benign observation never lowers another observation's score or drops its findings", () => {
    const alone = enrich(risky, CTX);
    expect(alone.intrinsic_risk_score).toBeGreaterThanOrEqual(70);
    for (const order of [
      [benign, risky],
      [risky, benign],
    ]) {
      const both = enrichObservations(order, CTX);
      expect(both.intrinsic_risk_score).toBe(alone.intrinsic_risk_score);
      expect(both.findings.map((f) => f.rule_id)).toEqual(expect.arrayContaining(['R01']));
    }
  });

  it('the score can only rise through another observation (union of findings)', () => {
    const a = enrich(risky, CTX).intrinsic_risk_score;
    const b = enrich(remoteCode, CTX).intrinsic_risk_score;
    const both = enrichObservations([remoteCode, risky], CTX);
    expect(both.intrinsic_risk_score).toBeGreaterThanOrEqual(Math.max(a, b));
    expect(both.findings.map((f) => f.rule_id)).toEqual(expect.arrayContaining(['R01', 'R05']));
    // contributions still explain the score
    expect(both.findings.reduce((s, f) => s + f.score_contribution, 0)).toBe(both.intrinsic_risk_score);
  });

  it('deduplicates findings by rule id and evidence across observations', () => {
    const twice = enrichObservations([risky, { ...risky }], CTX);
    expect(twice.findings).toEqual(enrich(risky, CTX).findings);
    // the licence finding of both cards is the same evidence: kept once
    const mixed = enrichObservations([benign, risky], CTX);
    const keys = mixed.findings.map((f) => `${f.rule_id}${JSON.stringify(f.evidence)}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('builds the AI-BOM from the riskiest observation, ties going to the newest (first)', () => {
    expect(primaryAnalysis([analyze(benign), analyze(risky)]).input).toBe(risky);
    const newer = input({
      name: 'acme/m',
      version: '2.0',
      raw_manifest: card,
      metadata: { files: ['model.safetensors'] },
    });
    expect(primaryAnalysis([analyze(newer), analyze(benign)]).input).toBe(newer);
    const both = enrichObservations([benign, risky], CTX);
    const files = JSON.stringify(both.aibom.components);
    expect(enrichObservations([risky], CTX).aibom.content_hash).not.toBe(enrich(benign, CTX).aibom.content_hash);
    expect(files).toEqual(JSON.stringify(enrichObservations([risky, benign], CTX).aibom.components));
  });

  it('CVE ids are the union over observations (threat matching reads them)', () => {
    const a = analyze(risky);
    const merged = mergeAnalyses([
      { ...a, cve_ids: ['CVE-2024-0001'] },
      { ...analyze(benign), cve_ids: ['CVE-2023-9999', 'CVE-2024-0001'] },
    ]);
    expect(merged.cve_ids).toEqual(['CVE-2023-9999', 'CVE-2024-0001']);
    expect(analyzeObservations([risky, benign]).cve_ids).toEqual([]);
  });

  it('refuses an empty observation set', () => {
    expect(() => enrichObservations([], CTX)).toThrow(/no observation/);
  });
});
