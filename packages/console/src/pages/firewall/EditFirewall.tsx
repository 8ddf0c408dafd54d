// Editing a firewall: only changed fields are sent. Changing the type, host, port or the TLS check needs the API
// token in the same request (the stored token is never sent to a connection it was not given for,
// docs/admin-api.md), so the form asks for it then and says why.
import { useState, type FormEvent } from 'react';
import { adminApi, unwrap } from '../../api/client';
import type { Firewall } from '../../api/types';
import { firewallChanges, type Draft } from './firewall-changes';
import { Field, FormErrorText, useSubmit } from '../../components/form';
import { ConnectionFields, VerifySslField } from '../firewalls/ConnectionFields';

export function EditFirewall({ firewall: fw, onSaved }: { firewall: Firewall; onSaved: (f: Firewall) => void }) {
  const initial: Draft = {
    name: fw.name,
    type: fw.type,
    host: fw.host,
    port: String(fw.port),
    verify_ssl: fw.verify_ssl,
    api_token: '',
  };
  const [draft, setDraft] = useState<Draft>(initial);
  const [saved, setSaved] = useState(false);
  const submit = useSubmit();
  const set = (k: keyof Draft) => (v: string | boolean) => {
    setSaved(false);
    setDraft((d) => ({ ...d, [k]: v }));
  };
  const { body, needsToken } = firewallChanges(fw, draft);
  const missingToken = needsToken && !draft.api_token;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit.run(async () => {
      onSaved(await unwrap(adminApi.PUT('/firewalls/v1/{id}', { params: { path: { id: fw.id } }, body })));
      setDraft((d) => ({ ...d, api_token: '' }));
      setSaved(true);
    });
  };
  return (
    <form className="card form" onSubmit={onSubmit} aria-labelledby="fw-edit-h">
      <h2 id="fw-edit-h">Edit</h2>
      <div className="form-row">
        <ConnectionFields draft={draft} set={set} error={submit.error} />
        <Field
          label={needsToken ? 'API token (required for this change)' : 'New API token (optional)'}
          name="api_token"
          error={submit.error}
          hint={
            needsToken
              ? 'The connection changes, so enter the API token again: the stored one is only ever sent to the connection it was given for.'
              : `Stored token ends in …${fw.api_token_last4}; leave empty to keep it.`
          }
        >
          <input
            type="password"
            autoComplete="off"
            required={needsToken}
            value={draft.api_token}
            onChange={(e) => set('api_token')(e.target.value)}
          />
        </Field>
      </div>
      <VerifySslField draft={draft} set={set} />
      <FormErrorText error={submit.error} />
      <p className="actions">
        <button
          type="submit"
          className="primary"
          disabled={submit.busy || Object.keys(body).length === 0 || missingToken}
        >
          Save changes
        </button>
        <span role="status">{saved ? 'Saved.' : ''}</span>
      </p>
    </form>
  );
}
