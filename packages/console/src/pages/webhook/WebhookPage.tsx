// One webhook endpoint (docs/console-pages.md "Webhooks"): its settings (enable / disable, events), signing-secret
// rotation (the new secret shown once), and the event log: each delivery with every attempt, filtered by status
// and paged through the API's cursors (in the address).
import { useState } from 'react';
import { publicApi, unwrap } from '../../api/client';
import type { Webhook } from '../../api/types';
import { Link, useRouter } from '../../app/router';
import { useResource } from '../../app/use-resource';
import { FormErrorText, useSubmit } from '../../components/form';
import { SecretOnce } from '../../components/secret-once';
import { Async } from '../../components/states';
import { RelativeTime } from '../../components/time';
import { DeliveryLog } from './DeliveryLog';

export function WebhookPage({ id }: { id: string }) {
  const hook = useResource(
    () => unwrap(publicApi.GET('/v1/webhooks/{webhook_id}', { params: { path: { webhook_id: id } } })),
    { key: id },
  );
  return (
    <Async state={hook.state}>
      {(w) => (
        <section>
          <p>
            <Link to="/webhooks">← Webhooks</Link>
          </p>
          <h1>{w.url}</h1>
          <dl className="kv">
            <dt>Id</dt>
            <dd>
              <code>{w.id}</code>
            </dd>
            <dt>Status</dt>
            <dd>
              {w.status}
              {w.disabled_reason ? ` (${w.disabled_reason})` : ''}
            </dd>
            <dt>Events</dt>
            <dd>{w.events.join(', ')}</dd>
            <dt>Description</dt>
            <dd>{w.description ?? '—'}</dd>
            <dt>Mode</dt>
            <dd>{w.livemode ? 'live' : 'test'}</dd>
            <dt>Created</dt>
            <dd>
              <RelativeTime value={w.created} />
            </dd>
          </dl>
          <EndpointActions hook={w} onChange={hook.set} />
          <DeliveryLog webhookId={w.id} />
        </section>
      )}
    </Async>
  );
}

function EndpointActions({ hook, onChange }: { hook: Webhook; onChange: (w: Webhook) => void }) {
  const { navigate } = useRouter();
  const [secret, setSecret] = useState<string | null>(null);
  const submit = useSubmit();
  const path = { webhook_id: hook.id };
  const rotate = () => {
    if (!window.confirm('Rotate the signing secret? Deliveries are signed with the new secret from now on.')) return;
    void submit.run(async () => {
      const w = await unwrap(publicApi.POST('/v1/webhooks/{webhook_id}/rotate_secret', { params: { path } }));
      setSecret(w.secret ?? null);
      const { secret: _omit, ...rest } = w;
      onChange(rest as Webhook);
    });
  };
  const toggle = () =>
    void submit.run(async () => {
      const status = hook.status === 'enabled' ? 'disabled' : 'enabled';
      onChange(await unwrap(publicApi.POST('/v1/webhooks/{webhook_id}', { params: { path }, body: { status } })));
    });
  const remove = () => {
    if (!window.confirm(`Delete the endpoint ${hook.url}?`)) return;
    void submit.run(async () => {
      await unwrap(publicApi.DELETE('/v1/webhooks/{webhook_id}', { params: { path } }));
      navigate('/webhooks');
    });
  };
  return (
    <section aria-labelledby="wh-actions-h">
      <h2 id="wh-actions-h">Manage</h2>
      {secret ? <SecretOnce label="New signing secret" secret={secret} onDone={() => setSecret(null)} /> : null}
      <p className="actions">
        <button type="button" onClick={rotate} disabled={submit.busy}>
          Rotate signing secret
        </button>
        <button type="button" onClick={toggle} disabled={submit.busy}>
          {hook.status === 'enabled' ? 'Disable' : 'Enable'}
        </button>
        <button type="button" className="danger" onClick={remove} disabled={submit.busy}>
          Delete
        </button>
      </p>
      <FormErrorText error={submit.error} />
    </section>
  );
}
