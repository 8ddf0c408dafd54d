// The evidence of an artifact finding (docs/artifacts.md "Judgement"): the file, the SHA-256 of its bytes, the
// platform's verdict and what the analyser saw — the callable a load would call, the archive member and the byte
// offset — so a reader can find the exact place in the file without loading it.

/** One analyser finding as the evidence quotes it. */
interface AnalyserFinding {
  id?: unknown;
  message?: unknown;
  callable?: unknown;
  member?: unknown;
  offset?: unknown;
  excerpt?: unknown;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/** The artifact part of a finding's evidence, or null when the finding is not about a judged file. */
export function artifactEvidenceOf(evidence: unknown): {
  path: string | null;
  sha256: string;
  verdict: string | null;
  format: string | null;
  analyser_version: string | null;
  findings: AnalyserFinding[];
} | null {
  if (!evidence || typeof evidence !== 'object' || Array.isArray(evidence)) return null;
  const e = evidence as Record<string, unknown>;
  const sha256 = text(e.sha256);
  if (!sha256 || !/^[0-9a-f]{64}$/.test(sha256)) return null;
  return {
    path: text(e.path),
    sha256,
    verdict: text(e.verdict),
    format: text(e.format),
    analyser_version: text(e.analyser_version),
    findings: Array.isArray(e.analyser_findings)
      ? (e.analyser_findings as unknown[]).filter((f): f is AnalyserFinding => !!f && typeof f === 'object')
      : [],
  };
}

export function ArtifactEvidence({ evidence }: { evidence: unknown }) {
  const a = artifactEvidenceOf(evidence);
  if (!a) return null;
  return (
    <div className="artifact-evidence">
      <dl>
        {a.path ? (
          <>
            <dt>File</dt>
            <dd>
              <code>{a.path}</code>
            </dd>
          </>
        ) : null}
        <dt>SHA-256</dt>
        <dd>
          <code className="hash">{a.sha256}</code>
        </dd>
        {a.verdict ? (
          <>
            <dt>Verdict</dt>
            <dd>
              {a.verdict}
              {a.format ? ` (${a.format})` : ''}
              {a.analyser_version ? `, analyser ${a.analyser_version}` : ''}
            </dd>
          </>
        ) : null}
      </dl>
      {a.findings.length ? (
        <ul aria-label="What the analyser found">
          {a.findings.map((f, i) => (
            <li key={i}>
              {text(f.message) ?? text(f.id) ?? 'finding'}
              {text(f.callable) ? (
                <>
                  {' '}
                  — calls <code>{text(f.callable)}</code>
                </>
              ) : null}
              {text(f.member) ? (
                <>
                  {' '}
                  in <code>{text(f.member)}</code>
                </>
              ) : null}
              {typeof f.offset === 'number' ? <> at byte {f.offset}</> : null}
              {text(f.excerpt) ? (
                <>
                  {': '}
                  <code>{text(f.excerpt)}</code>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
