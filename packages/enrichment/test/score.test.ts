import fc from 'fast-check';
import { computeScore, enrich, finalize, analyze, severityForScore } from '../src/index';
import type { FindingDraft, Severity } from '../src/index';
import { CTX, fixture, input } from './helpers';

const SEV: Severity[] = ['critical', 'high', 'medium', 'low', 'informational'];
const draftArb = fc.record({
  rule_id: fc.constantFrom('R01', 'R05', 'R08', 'R16', 'R22', 'R00', 'threat_match'),
  severity: fc.constantFrom(...SEV),
  confidence: fc.constantFrom(0.3, 0.6, 1),
  weight: fc.double({ min: 0, max: 100, noNaN: true }),
  threat_ids: fc.constantFrom([] as string[], ['thr_1']),
});
type D = Pick<FindingDraft, 'rule_id' | 'weight' | 'severity' | 'confidence' | 'threat_ids'>;

describe('scoring properties', () => {
  it('is capped at 100 and integer contributions sum exactly to the score', () => {
    fc.assert(
      fc.property(fc.array(draftArb, { maxLength: 30 }), (ds: D[]) => {
        const s = computeScore(ds);
        expect(s.score).toBeGreaterThanOrEqual(0);
        expect(s.score).toBeLessThanOrEqual(100);
        expect(Number.isInteger(s.score)).toBe(true);
        expect(s.items.reduce((a, it) => a + it.contribution, 0)).toBe(s.score);
        for (const it of s.items) expect(Number.isInteger(it.contribution) && it.contribution >= 0).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
  it('is monotonic: adding a finding never lowers the score', () => {
    fc.assert(
      fc.property(fc.array(draftArb, { maxLength: 20 }), draftArb, (ds: D[], extra: D) => {
        expect(computeScore([...ds, extra]).score).toBeGreaterThanOrEqual(computeScore(ds).score);
      }),
      { numRuns: 500 },
    );
  });
  it('is order-independent', () => {
    fc.assert(
      fc.property(fc.array(draftArb, { maxLength: 15 }), (ds: D[]) => {
        expect(computeScore([...ds].reverse()).score).toBe(computeScore(ds).score);
      }),
      { numRuns: 200 },
    );
  });
  // calibrated bands (docs/enrichment.md "Scoring model"): these numbers changed deliberately from
  // the probabilistic-OR model (one medium was 15 = low, two 28, a high at confidence 0.6 was 21 = low)
  it('applies band floors and diminishing returns inside the band', () => {
    const med = { rule_id: 'R08', severity: 'medium' as const, confidence: 1, weight: 15, threat_ids: [] };
    expect(computeScore([med]).score).toBe(44); // 40 + 29 x 0.15
    expect(computeScore([med, { ...med }]).score).toBe(48); // 40 + 29 x (1 - 0.85^2)
    // many mediums stay medium: the worst finding's band bounds the score
    expect(computeScore(Array.from({ length: 20 }, () => ({ ...med }))).score).toBe(68); // 40 + 29 x (1 - 0.85^20)
    expect(computeScore([{ rule_id: 'R05', severity: 'high', confidence: 1, weight: 35, threat_ids: [] }]).score).toBe(
      77, // 70 + 19 x 0.35
    );
    expect(
      computeScore([{ rule_id: 'R16', severity: 'critical', confidence: 1, weight: 60, threat_ids: [] }]).score,
    ).toBe(96); // 90 + 10 x 0.6
    // a high at confidence 0.6 counts one band lower: medium, not low
    expect(
      computeScore([{ rule_id: 'R15', severity: 'high', confidence: 0.6, weight: 21, threat_ids: [] }]).score,
    ).toBe(46); // 40 + 29 x 0.21
    const low = { rule_id: 'R22', severity: 'low' as const, confidence: 1, weight: 5, threat_ids: [] };
    expect(computeScore([low]).score).toBe(11); // 10 + 29 x 0.05
    expect(computeScore([{ ...low, rule_id: 'R00', severity: 'informational', weight: 0 }]).score).toBe(0);
  });
  it('severity bands follow docs/public-api.md', () => {
    expect([100, 90, 89, 70, 69, 40, 39, 10, 9, 0].map(severityForScore)).toEqual([
      'critical',
      'critical',
      'high',
      'high',
      'medium',
      'medium',
      'low',
      'low',
      'informational',
      'informational',
    ]);
  });
});

describe('finalize', () => {
  it('adds a finding per matched threat with its risk_penalty and sums contributions', () => {
    const a = analyze(input({ raw_manifest: fixture('24-hf-card-wav2vec2-sv-ccbync-README.md') }));
    const r = finalize(a, {
      ...CTX,
      threats: [
        {
          id: 'thr_b',
          title: 'B',
          category: 'supply_chain',
          severity: 'high',
          risk_penalty: 20,
          cve_id: 'CVE-2024-3568',
          attack_techniques: ['AML.T0010'],
          remediation: 'upgrade',
        },
        {
          id: 'thr_a',
          title: 'A',
          category: 'x',
          severity: 'low',
          risk_penalty: 5,
          cve_id: null,
          attack_techniques: [],
          remediation: null,
        },
      ],
    });
    const tf = r.findings.filter((f) => f.rule_id === 'threat_match');
    expect(tf.map((f) => f.threat_ids[0])).toEqual(['thr_a', 'thr_b']);
    expect(tf.map((f) => f.weight)).toEqual([5, 20]);
    expect(r.score_breakdown.threat_penalty).toBe(25);
    expect(r.intrinsic_risk_score).toBe(69); // 44 (R09: medium floor 40 + 29 x 0.15) + 25
    expect(r.intrinsic_risk_severity).toBe('medium');
    expect(r.findings.reduce((s, f) => s + f.score_contribution, 0)).toBe(r.intrinsic_risk_score);
    expect(r.score_breakdown.items.find((i) => i.threat_id === 'thr_b')?.contribution).toBe(20);
  });
  it('caps at 100 with many threats', () => {
    const threats = Array.from({ length: 5 }, (_, i) => ({
      id: `thr_${i}`,
      title: 't',
      category: 'c',
      severity: 'critical' as const,
      risk_penalty: 40,
      cve_id: null,
      attack_techniques: [],
      remediation: null,
    }));
    const r = enrich(input({ raw_manifest: fixture('33-hf-pytorch-bin-index-codegeex2.json') }), { ...CTX, threats });
    expect(r.intrinsic_risk_score).toBe(100);
    expect(r.findings.reduce((s, f) => s + f.score_contribution, 0)).toBe(100);
  });
});

describe('publisher trust and benchmark summary', () => {
  it('verified publisher', () => {
    const r = enrich(input({ name: 'meta-llama/Llama-3.1-8B', raw_manifest: '---\nlicense: llama3.1\n---\n' }), CTX);
    expect(r.publisher_trust).toMatchObject({ publisher: 'meta-llama', verified: true, level: 'verified' });
    expect(r.publisher_trust.score as number).toBeGreaterThanOrEqual(80);
  });
  it('established by org count and age, suspicious with a typosquat, unknown otherwise', () => {
    const est = enrich(input({ name: 'someorg/model' }), {
      ...CTX,
      publisher: { org_count: 5, signal_count: 40, first_seen: '2025-01-01T00:00:00Z' },
    });
    expect(est.publisher_trust.level).toBe('established');
    expect(
      enrich(input({ name: 'someorg/model' }), {
        ...CTX,
        publisher: { org_count: 1, signal_count: 1, first_seen: '2026-11-20T00:00:00Z' },
      }).publisher_trust.level,
    ).toBe('unknown');
    const sus = enrich(input({ name: 'meta-1lama/Llama-3-8B' }), CTX);
    expect(sus.publisher_trust).toMatchObject({ level: 'suspicious', verified: false });
    expect((sus.publisher_trust.factors as Array<{ factor: string }>).map((f) => f.factor)).toContain('typosquat_name');
  });
  it('benchmark summary from model-index, null without it', () => {
    const r = enrich(input({ raw_manifest: fixture('24-hf-card-wav2vec2-sv-ccbync-README.md') }), CTX);
    expect(r.benchmark_summary).toMatchObject({ source: 'model-index', count: 2 });
    expect((r.benchmark_summary?.results as unknown[])[1]).toMatchObject({
      task: 'automatic-speech-recognition',
      dataset: 'common_voice',
      metric: 'wer',
      value: 19.145252414798616,
    });
    expect(
      enrich(input({ raw_manifest: fixture('21-hf-card-pokemon-lora-README.md') }), CTX).benchmark_summary,
    ).toBeNull();
  });
});
