// A policy's own settings (docs/console-pages.md "URL-filter policies"): rename, describe, change the default
// action. Sends only what changed with the version the page shows (PUT /policies/v1/url-filter/{id}); a version
// conflict is explained and the policy reloaded, keeping what was typed so it can be saved again.
import { useState, type FormEvent } from 'react';
import { adminApi, unwrap } from '../../api/client';
import { FILTER_ACTIONS, type FilterAction, type Policy } from '../../api/types';
import { Field, FormErrorText, useSubmit } from '../../components/form';
import { policyDraftOf, updatePolicyBody, type PolicyDraft } from './rule-draft';
import { saveOrExplainConflict } from './version-conflict';

export function PolicySettings(props: { policy: Policy; onChange: (p: Policy) => void; refresh: () => Promise<void> }) {
  const { policy } = props;
  // the draft follows the saved settings when they change (a save, or a reload after a conflict that touched them)
  const savedKey = [policy.name, policy.description ?? '', policy.default_action].join('\n');
  const [draft, setDraft] = useState<{ key: string; value: PolicyDraft }>({
    key: savedKey,
    value: policyDraftOf(policy),
  });
  const d = draft.key === savedKey ? draft.value : policyDraftOf(policy);
  const set = (value: PolicyDraft) => setDraft({ key: savedKey, value });
  const [saved, setSaved] = useState<string | null>(null);
  const submit = useSubmit();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(null);
    const body = updatePolicyBody(policy, d);
    if (!body) {
      setSaved('Nothing changed.');
      return;
    }
    void submit.run(async () => {
      const params = { path: { id: policy.id } };
      const saved = await saveOrExplainConflict(
        () => unwrap(adminApi.PUT('/policies/v1/url-filter/{id}', { params, body })),
        {
          refresh: props.refresh,
          version: policy.version,
          what: 'your change to the settings',
          next: 'check them and save again',
        },
      );
      props.onChange(saved);
      setSaved('Settings saved.');
    });
  };
  return (
    <form className="card form" onSubmit={onSubmit} aria-labelledby="settings-h">
      <h2 id="settings-h">Settings</h2>
      <div className="form-row">
        <Field label="Policy name" name="name" error={submit.error}>
          <input required maxLength={100} value={d.name} onChange={(e) => set({ ...d, name: e.target.value })} />
        </Field>
        <Field label="Default action" name="default_action" error={submit.error} hint="when no rule matches">
          <select
            value={d.defaultAction}
            onChange={(e) => set({ ...d, defaultAction: e.target.value as FilterAction })}
          >
            {FILTER_ACTIONS.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </Field>
        <Field label="Description" name="description" error={submit.error}>
          <input maxLength={1000} value={d.description} onChange={(e) => set({ ...d, description: e.target.value })} />
        </Field>
      </div>
      <FormErrorText error={submit.error} />
      {saved ? <p role="status">{saved}</p> : null}
      <button type="submit" className="primary" disabled={submit.busy}>
        {submit.busy ? 'Saving…' : 'Save settings'}
      </button>
    </form>
  );
}
