// One threat (docs/console-pages.md "Threats"): every field as text, CVE and ATLAS links, a STIX download, and, when
// the signed-in org created it, the edit form (other orgs' threats are read-only: the API answers 404 to them).
import { useState } from 'react';
import { publicApi, unwrap } from '../../api/client';
import type { Threat } from '../../api/types';
import { Link } from '../../app/router';
import { useSession } from '../../app/session';
import { useResource } from '../../app/use-resource';
import { FormErrorText, useSubmit } from '../../components/form';
import { SeverityBadge } from '../../components/severity';
import { Async } from '../../components/states';
import { RelativeTime } from '../../components/time';
import { downloadBlob } from '../../lib/download';
import { formatNumber } from '../../lib/format';
import { draftOf, updateBody } from '../../lib/threats';
import { ThreatForm } from '../threats/ThreatForm';

export function ThreatPage({ id }: { id: string }) {
  const { session } = useSession();
  const threat = useResource(
    () => unwrap(publicApi.GET('/v1/threats/{threat_id}', { params: { path: { threat_id: id } } })),
    { key: id },
  );
  return (
    <Async state={threat.state}>
      {(t) => (
        <section>
          <p>
            <Link to="/threats">← Threats</Link>
          </p>
          <h1>{t.title}</h1>
          <ThreatDetails threat={t} />
          <DownloadStix id={t.id} />
          {t.created_by_org === session?.tenant?.org_id ? (
            <EditThreat key={t.updated} threat={t} onSaved={threat.set} />
          ) : (
            <p className="muted">Created by another organisation: read-only.</p>
          )}
        </section>
      )}
    </Async>
  );
}

function ThreatDetails({ threat: t }: { threat: Threat }) {
  return (
    <dl className="kv">
      <dt>Id</dt>
      <dd>
        <code>{t.id}</code>
      </dd>
      <dt>Category</dt>
      <dd>{t.category}</dd>
      <dt>Severity</dt>
      <dd>
        <SeverityBadge severity={t.severity} />
      </dd>
      <dt>Confidence</dt>
      <dd>{t.confidence === null ? '—' : `${formatNumber(Math.round(t.confidence * 100))} %`}</dd>
      <dt>Risk penalty</dt>
      <dd>{formatNumber(t.risk_penalty)}</dd>
      <dt>CVE</dt>
      <dd>
        {t.cve_id ? (
          <a
            href={`https://nvd.nist.gov/vuln/detail/${encodeURIComponent(t.cve_id)}`}
            rel="noreferrer noopener"
            target="_blank"
          >
            {t.cve_id}
          </a>
        ) : (
          '—'
        )}
      </dd>
      <dt>ATLAS techniques</dt>
      <dd>
        {t.attack_techniques.length
          ? t.attack_techniques.map((a) => (
              <a
                key={a}
                href={`https://atlas.mitre.org/techniques/${encodeURIComponent(a)}`}
                rel="noreferrer noopener"
                target="_blank"
              >
                {a}{' '}
              </a>
            ))
          : '—'}
      </dd>
      <dt>Asset types</dt>
      <dd>{t.affected_asset_types.length ? t.affected_asset_types.join(', ') : 'every type'}</dd>
      <dt>Fingerprints</dt>
      <dd>{t.fingerprints.length ? t.fingerprints.join(', ') : '—'}</dd>
      <dt>Description</dt>
      <dd className="prewrap">{t.description ?? '—'}</dd>
      <dt>Remediation</dt>
      <dd className="prewrap">{t.remediation ?? '—'}</dd>
      <dt>Source</dt>
      <dd>{t.source ?? '—'}</dd>
      <dt>Created</dt>
      <dd>
        <RelativeTime value={t.created} />
      </dd>
      <dt>Updated</dt>
      <dd>
        <RelativeTime value={t.updated} />
      </dd>
    </dl>
  );
}

function DownloadStix({ id }: { id: string }) {
  const submit = useSubmit();
  const download = () =>
    void submit.run(async () => {
      const blob = await unwrap(
        publicApi.GET('/v1/threats/{threat_id}/export', { params: { path: { threat_id: id } }, parseAs: 'blob' }),
      );
      downloadBlob(blob, `${id}.stix.json`);
    });
  return (
    <p className="actions">
      <button type="button" onClick={download} disabled={submit.busy}>
        Download as STIX
      </button>
      <FormErrorText error={submit.error} />
    </p>
  );
}

function EditThreat({ threat, onSaved }: { threat: Threat; onSaved: (t: Threat) => void }) {
  const submit = useSubmit();
  const [saved, setSaved] = useState(false);
  return (
    <>
      <ThreatForm
        title="Edit this threat"
        submitLabel="Save threat"
        initial={draftOf(threat)}
        busy={submit.busy}
        error={submit.error}
        onSubmit={(d) =>
          void submit.run(async () => {
            setSaved(false);
            const body = updateBody(d);
            onSaved(
              await unwrap(
                publicApi.POST('/v1/threats/{threat_id}', { params: { path: { threat_id: threat.id } }, body }),
              ),
            );
            setSaved(true);
          })
        }
      />
      <p role="status">{saved ? 'Saved.' : ''}</p>
    </>
  );
}
