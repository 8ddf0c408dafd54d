// Findings of an asset with CVE and ATLAS links and the org's triage (POST …/findings/{id}/triage, scope
// assets:triage; docs/triage.md). A triage change reloads the asset, so the effective score follows.
import { useState, type FormEvent } from 'react';
import { ConsoleApiError, publicApi, unwrap } from '../../api/client';
import { TRIAGE_STATES as STATES, VEX_JUSTIFICATIONS as JUSTIFICATIONS, type Finding } from '../../api/types';
import { SeverityBadge } from '../../components/severity';
import { AtlasLink } from '../overview/OverviewPage';
import { ArtifactEvidence } from './ArtifactEvidence';

export function FindingsSection(props: { fingerprint: string; findings: Finding[]; onChanged: () => void }) {
  const { fingerprint, findings, onChanged } = props;
  return (
    <section aria-labelledby="findings-title">
      <h2 id="findings-title">Findings ({findings.length})</h2>
      {findings.length === 0 ? <p>No findings.</p> : null}
      {findings.map((f) => (
        <div className="card finding" key={f.id}>
          <h3>
            <SeverityBadge severity={f.effective_severity} /> {f.title} <code>{f.rule_id}</code>
          </h3>
          <p>{f.description}</p>
          <ArtifactEvidence evidence={f.evidence} />
          {f.remediation ? <p className="muted">Remediation: {f.remediation}</p> : null}
          <p>
            {f.cve_ids.map((id) => (
              <a
                key={id}
                href={`https://nvd.nist.gov/vuln/detail/${encodeURIComponent(id)}`}
                rel="noreferrer noopener"
                target="_blank"
              >
                {id}{' '}
              </a>
            ))}
            {f.attack_techniques.map((id) => (
              <span key={id}>
                <AtlasLink id={id} />{' '}
              </span>
            ))}
          </p>
          <TriageForm fingerprint={fingerprint} finding={f} onChanged={onChanged} />
        </div>
      ))}
    </section>
  );
}

function TriageForm({
  fingerprint,
  finding,
  onChanged,
}: {
  fingerprint: string;
  finding: Finding;
  onChanged: () => void;
}) {
  const current = finding.triage?.state ?? 'open';
  const [state, setState] = useState<string>(current);
  const [justification, setJustification] = useState<string>(JUSTIFICATIONS[0]!);
  const [days, setDays] = useState(30);
  const [comment, setComment] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `triage-${finding.id}`;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setMessage(null);
    const body: Record<string, unknown> = { state };
    if (state === 'not_affected') body.justification = justification;
    if (state === 'accepted_risk') body.expires_at = Math.floor(Date.now() / 1000) + days * 86400;
    if (comment.trim()) body.comment = comment.trim();
    try {
      await unwrap(
        publicApi.POST('/v1/assets/{fingerprint}/findings/{finding_id}/triage', {
          params: { path: { fingerprint, finding_id: finding.id } },
          body: body as never,
        }),
      );
      setMessage('Saved.');
      onChanged();
    } catch (err) {
      setMessage(err instanceof ConsoleApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="filters" onSubmit={(e) => void submit(e)} aria-label={`Triage ${finding.title}`}>
      <div>
        <label htmlFor={`${id}-state`}>Triage</label>
        <select id={`${id}-state`} value={state} onChange={(e) => setState(e.target.value)}>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      {state === 'not_affected' ? (
        <div>
          <label htmlFor={`${id}-just`}>Justification</label>
          <select id={`${id}-just`} value={justification} onChange={(e) => setJustification(e.target.value)}>
            {JUSTIFICATIONS.map((j) => (
              <option key={j} value={j}>
                {j}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {state === 'accepted_risk' ? (
        <div>
          <label htmlFor={`${id}-days`}>Accept for (days)</label>
          <input
            id={`${id}-days`}
            type="number"
            min={1}
            max={365}
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
          />
        </div>
      ) : null}
      <div>
        <label htmlFor={`${id}-comment`}>Comment</label>
        <input id={`${id}-comment`} value={comment} maxLength={2000} onChange={(e) => setComment(e.target.value)} />
      </div>
      <button type="submit" disabled={busy}>
        Save triage
      </button>
      {message ? (
        <span role="status" className="muted">
          {message}
        </span>
      ) : null}
    </form>
  );
}
