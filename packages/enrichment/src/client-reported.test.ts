import { clientReportedFindings, reportCounts, type ClientReport } from './client-reported';

// docs/artifacts.md "Client-reported scan results": which reports add a finding to the org's view, and what it says.
const sha = (n: number) => n.toString(16).padStart(64, '0');
const report = (over: Partial<ClientReport> = {}): ClientReport => ({
  path: 'pytorch_model.bin',
  sha256: sha(1),
  verdict: 'malicious',
  analyser: 'risk-scan',
  analyser_version: '1.2.0',
  findings: [{ id: 'pickle.dangerous_callable', message: 'calls os.system', evidence: { callable: 'os.system' } }],
  reported_at: '2026-11-29T10:00:00.000Z',
  platform_verdict: null,
  ...over,
});

describe('reportCounts', () => {
  test.each([
    ['malicious', null, true],
    ['suspicious', null, true],
    ['invalid', null, true],
    ['unscannable', null, true],
    // a reported benign or unsupported never lowers or adds anything, not even for the reporting org
    ['benign', null, false],
    ['unsupported', null, false],
    // the platform's own verdict always wins, in both directions
    ['malicious', 'benign', false],
    ['malicious', 'suspicious', false],
    ['benign', 'malicious', false],
    ['benign', 'unscannable', false],
    // a platform verdict that proves nothing (unsupported, unscannable, invalid) lets only a worse claim through
    ['malicious', 'unsupported', true],
    ['unscannable', 'unsupported', true],
    ['malicious', 'invalid', true],
    ['suspicious', 'unscannable', true],
    ['invalid', 'invalid', false],
    ['unscannable', 'invalid', false],
  ])('reported %s, platform %s → %s', (verdict, platform_verdict, counts) => {
    expect(reportCounts({ verdict, platform_verdict })).toBe(counts);
  });
});

describe('clientReportedFindings', () => {
  test('a malicious report is a critical finding marked client_reported, quoting the client', () => {
    const [f, ...rest] = clientReportedFindings([report()]);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      rule_id: 'artifact_reported_malicious',
      severity: 'critical',
      title: 'File reported malicious by your scanner: pytorch_model.bin',
      evidence: {
        source: 'client_reported',
        sha256: sha(1),
        verdict: 'malicious',
        analyser: 'risk-scan',
        analyser_version: '1.2.0',
        platform_verdict: null,
        analyser_findings: [{ id: 'pickle.dangerous_callable', message: 'calls os.system', callable: 'os.system' }],
      },
    });
    expect(f!.confidence).toBeLessThan(0.9);
  });

  test('severities follow the verdict; benign, unsupported and platform-judged reports add nothing', () => {
    const out = clientReportedFindings([
      report({ path: 'a', sha256: sha(1), verdict: 'suspicious' }),
      report({ path: 'b', sha256: sha(2), verdict: 'invalid' }),
      report({ path: 'c', sha256: sha(3), verdict: 'unscannable' }),
      report({ path: 'd', sha256: sha(4), verdict: 'benign' }),
      report({ path: 'e', sha256: sha(5), verdict: 'unsupported' }),
      report({ path: 'f', sha256: sha(6), verdict: 'malicious', platform_verdict: 'benign' }),
    ]);
    expect(out.map((f) => [f.rule_id, f.severity, f.evidence.path])).toEqual([
      ['artifact_reported_suspicious', 'high', 'a'],
      ['artifact_reported_unverified', 'medium', 'b'],
      ['artifact_reported_unverified', 'medium', 'c'],
    ]);
  });

  test('at most 20 findings per rule, the last counting the rest; hostile quotes are bounded', () => {
    const many = Array.from({ length: 25 }, (_, k) =>
      report({
        path: `f${String(k).padStart(2, '0')}`,
        sha256: sha(k + 1),
        findings: [
          { id: 'x'.repeat(5000), message: 'm'.repeat(5000), evidence: { excerpt: 'e'.repeat(5000), offset: 1.5 } },
          'not an object',
          ...Array.from({ length: 20 }, () => ({ id: 'y', message: 'z' })),
        ],
      }),
    );
    const out = clientReportedFindings(many);
    expect(out).toHaveLength(20);
    expect(out.at(-1)!.evidence.more_files).toBe(5);
    const quoted = out[0]!.evidence.analyser_findings as Array<Record<string, unknown>>;
    expect(quoted.length).toBeLessThanOrEqual(10);
    // truncated with an ellipsis
    expect(String(quoted[0]!.id).length).toBeLessThanOrEqual(101);
    expect(String(quoted[0]!.message).length).toBeLessThanOrEqual(201);
    expect(String(quoted[0]!.excerpt).length).toBeLessThanOrEqual(201);
    expect(quoted[0]!.offset).toBeUndefined();
    expect(clientReportedFindings([report({ findings: 'not a list' })])[0]!.evidence.analyser_findings).toEqual([]);
  });
});
