// Webhooks (docs/console-pages.md "Webhooks"): the org's endpoints, paged through the public API's cursors, and the
// create form; the new endpoint's signing secret is shown once (components/secret-once.tsx).
import { useState, type FormEvent } from 'react';
import { publicApi, unwrap } from '../../api/client';
import type { Webhook } from '../../api/types';
import { Link } from '../../app/router';
import { usePagedList } from '../../app/use-paged';
import { PagedTable } from '../../components/data-table';
import { Field, FormErrorText, useSubmit } from '../../components/form';
import { SecretOnce } from '../../components/secret-once';
import { RelativeTime } from '../../components/time';
import { EventPicker } from './EventPicker';
import { eventsBody, type EventType } from '../../lib/webhook-events';

export function WebhooksPage() {
  const list = usePagedList<Webhook>((cursor) =>
    unwrap(publicApi.GET('/v1/webhooks', { params: { query: { limit: 20, ...cursor } } })),
  );
  const [created, setCreated] = useState<Webhook | null>(null);
  return (
    <section>
      <h1>Webhooks</h1>
      {created?.secret ? (
        <SecretOnce
          label={`Signing secret of ${created.url}`}
          secret={created.secret}
          onDone={() => setCreated(null)}
        />
      ) : null}
      <CreateWebhook
        onCreated={(w) => {
          setCreated(w);
          list.state.reload();
        }}
      />
      <h2>Endpoints</h2>
      <PagedTable
        list={list}
        empty="No webhook endpoints yet."
        columns={['URL', 'Events', 'Status', 'Mode', 'Created']}
        row={(w) => (
          <>
            <td>
              <Link to={`/webhooks/${encodeURIComponent(w.id)}`}>{w.url}</Link>
              {w.description ? <div className="muted">{w.description}</div> : null}
            </td>
            <td>{w.events.join(', ')}</td>
            <td>
              {w.status}
              {w.disabled_reason ? ` (${w.disabled_reason})` : ''}
            </td>
            <td>{w.livemode ? 'live' : 'test'}</td>
            <td>
              <RelativeTime value={w.created} />
            </td>
          </>
        )}
      />
    </section>
  );
}

function CreateWebhook({ onCreated }: { onCreated: (w: Webhook) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventType[]>([]);
  const submit = useSubmit();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit.run(async () => {
      const body = { url: url.trim(), events: eventsBody(events), ...(description ? { description } : {}) };
      onCreated(await unwrap(publicApi.POST('/v1/webhooks', { body })));
      setUrl('');
      setDescription('');
      setEvents([]);
    });
  };
  return (
    <form className="card form" onSubmit={onSubmit} aria-labelledby="new-wh-h">
      <h2 id="new-wh-h">New endpoint</h2>
      <div className="form-row">
        <Field label="URL" name="url" error={submit.error} hint="https (http only in test mode)">
          <input type="url" required maxLength={2048} value={url} onChange={(e) => setUrl(e.target.value)} />
        </Field>
        <Field label="Description" name="description" error={submit.error}>
          <input maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
      </div>
      <EventPicker chosen={events} onChange={setEvents} />
      <FormErrorText error={submit.error} />
      <button type="submit" className="primary" disabled={submit.busy || url.trim() === ''}>
        {submit.busy ? 'Creating…' : 'Create endpoint'}
      </button>
    </form>
  );
}
