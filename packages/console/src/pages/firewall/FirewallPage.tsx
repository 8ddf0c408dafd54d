// One firewall (docs/console-pages.md "Firewalls"): its details, a connection test with the vendor's detailed answer,
// editing (a changed type, host, port or TLS check needs the API token again: docs/admin-api.md), vendor log
// forwarding, and the sync status of every policy assigned to it (polled while a push is under way).
import { useState } from 'react';
import { adminApi, unwrap } from '../../api/client';
import type { Firewall, FirewallTest } from '../../api/types';
import { Link, useRouter } from '../../app/router';
import { useResource } from '../../app/use-resource';
import { FormErrorText, useSubmit } from '../../components/form';
import { Async } from '../../components/states';
import { RelativeTime } from '../../components/time';
import { formatNumber } from '../../lib/format';
import { firewallTypeLabel } from '../firewalls/firewall-types';
import { EditFirewall } from './EditFirewall';
import { FirewallPolicies } from './FirewallPolicies';
import { LoggingForm } from './LoggingForm';

export function FirewallPage({ id }: { id: string }) {
  const fw = useResource(() => unwrap(adminApi.GET('/firewalls/v1/{id}', { params: { path: { id } } })), { key: id });
  return (
    <Async state={fw.state}>
      {(f) => (
        <section>
          <p>
            <Link to="/firewalls">← Firewalls</Link>
          </p>
          <h1>{f.name}</h1>
          <Details firewall={f} />
          <TestConnection firewall={f} onTested={() => void fw.refresh()} />
          <FirewallPolicies firewallId={f.id} />
          <EditFirewall firewall={f} onSaved={fw.set} />
          <LoggingForm firewall={f} onSaved={() => void fw.refresh()} />
          <DeleteFirewall firewall={f} />
        </section>
      )}
    </Async>
  );
}

function Details({ firewall: f }: { firewall: Firewall }) {
  return (
    <dl className="kv">
      <dt>Id</dt>
      <dd>
        <code>{f.id}</code>
      </dd>
      <dt>Type</dt>
      <dd>{firewallTypeLabel(f.type)}</dd>
      <dt>Address</dt>
      <dd>
        {f.host}:{f.port} {f.verify_ssl ? '(TLS certificate verified)' : '(TLS certificate not verified)'}
      </dd>
      <dt>API token</dt>
      <dd>…{f.api_token_last4}</dd>
      <dt>Status</dt>
      <dd>{f.status}</dd>
      <dt>Model / version</dt>
      <dd>{[f.model, f.version].filter(Boolean).join(' ') || '—'}</dd>
      <dt>Last test</dt>
      <dd>
        {f.last_test ? (
          <>
            {f.last_test.ok ? 'ok' : `failed${f.last_test.error ? `: ${f.last_test.error}` : ''}`},{' '}
            <RelativeTime value={f.last_test.at} />
          </>
        ) : (
          'never'
        )}
      </dd>
      <dt>Log forwarding</dt>
      <dd>
        {f.logging?.status ?? 'not configured'}
        {f.logging?.error ? ` (${f.logging.error})` : ''}
      </dd>
    </dl>
  );
}

function TestConnection({ firewall, onTested }: { firewall: Firewall; onTested: () => void }) {
  const [result, setResult] = useState<FirewallTest | null>(null);
  const submit = useSubmit();
  const test = () =>
    void submit.run(async () => {
      setResult(await unwrap(adminApi.POST('/firewalls/v1/{id}/test', { params: { path: { id: firewall.id } } })));
      onTested();
    });
  return (
    <section aria-labelledby="fw-test-h">
      <h2 id="fw-test-h">Connection test</h2>
      <button type="button" className="primary" onClick={test} disabled={submit.busy}>
        {submit.busy ? 'Testing…' : 'Test the connection'}
      </button>
      <FormErrorText error={submit.error} />
      <div aria-live="polite">
        {result ? (
          <div className={`card test-result ${result.ok ? 'ok' : 'fail'}`} data-testid="fw-test-result">
            <p>
              <strong>{result.ok ? 'Connected' : 'Connection failed'}</strong> in {formatNumber(result.latency_ms)} ms,{' '}
              <RelativeTime value={result.tested_at} />
            </p>
            <dl className="kv">
              <dt>Model</dt>
              <dd>{result.model ?? '—'}</dd>
              <dt>Version</dt>
              <dd>{result.version ?? '—'}</dd>
              <dt>Host name</dt>
              <dd>{result.hostname ?? '—'}</dd>
              <dt>Serial</dt>
              <dd>{result.serial ?? '—'}</dd>
              {result.error ? (
                <>
                  <dt>Error</dt>
                  <dd>
                    {result.error.reason}: {result.error.message}
                  </dd>
                </>
              ) : null}
            </dl>
          </div>
        ) : null}
      </div>
    </section>
  );
}

function DeleteFirewall({ firewall }: { firewall: Firewall }) {
  const { navigate } = useRouter();
  const submit = useSubmit();
  const remove = () => {
    if (!window.confirm(`Delete the firewall ${firewall.name}? Its stored API token is deleted too.`)) return;
    void submit.run(async () => {
      await unwrap(adminApi.DELETE('/firewalls/v1/{id}', { params: { path: { id: firewall.id }, query: {} } }));
      navigate('/firewalls');
    });
  };
  return (
    <section aria-labelledby="fw-del-h">
      <h2 id="fw-del-h">Delete</h2>
      <p className="muted">A firewall with assigned policies cannot be deleted: unassign them first.</p>
      <button type="button" className="danger" onClick={remove} disabled={submit.busy}>
        Delete firewall
      </button>
      <FormErrorText error={submit.error} />
    </section>
  );
}
