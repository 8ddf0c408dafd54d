// The rule forms of the policy page (docs/console-pages.md "URL-filter policies"): add a rule, and edit one
// (its name, action, enabled flag and every matching criterion the admin API's partial update accepts). An edit
// sends only what changed with the version the page shows; a version conflict is explained and the policy reloaded.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { adminApi, unwrap } from '../../api/client';
import { ASSET_SEVERITIES, FILTER_ACTIONS, type FilterAction, type Policy, type Rule } from '../../api/types';
import { Field, FormErrorText, useSubmit, type FormError } from '../../components/form';
import { loadPolicy } from './policy-api';
import { createRuleBody, draftOf, EMPTY_RULE, updateRuleBody, type RuleDraft } from './rule-draft';
import { saveOrExplainConflict } from './version-conflict';

function RuleFields(props: { draft: RuleDraft; set: (d: RuleDraft) => void; error: FormError | null }) {
  const { draft: d, set, error } = props;
  return (
    <div className="form-row">
      <Field label="Rule name" name="name" error={error}>
        <input maxLength={100} value={d.name} onChange={(e) => set({ ...d, name: e.target.value })} />
      </Field>
      <Field label="Action" name="action" error={error}>
        <select value={d.action} onChange={(e) => set({ ...d, action: e.target.value as FilterAction })}>
          {FILTER_ACTIONS.map((a) => (
            <option key={a}>{a}</option>
          ))}
        </select>
      </Field>
      <Field label="Domains" name="domains" error={error} hint="comma or space separated">
        <input value={d.domains} onChange={(e) => set({ ...d, domains: e.target.value })} />
      </Field>
      <Field label="Categories" name="categories" error={error} hint="category ids, e.g. ai-chat-assistant">
        <input value={d.categories} onChange={(e) => set({ ...d, categories: e.target.value })} />
      </Field>
      <Field label="Minimum risk score" name="min_risk_score" error={error}>
        <input
          type="number"
          min={0}
          max={100}
          value={d.minScore}
          onChange={(e) => set({ ...d, minScore: e.target.value })}
        />
      </Field>
      <Field label="Risky assets at or above" name="min_asset_severity" error={error}>
        <select
          value={d.minSeverity}
          onChange={(e) => set({ ...d, minSeverity: e.target.value as RuleDraft['minSeverity'] })}
        >
          <option value="">(not a criterion)</option>
          {ASSET_SEVERITIES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </Field>
    </div>
  );
}

export function AddRule({ policy, onChange }: { policy: Policy; onChange: (p: Policy) => void }) {
  const [draft, setDraft] = useState<RuleDraft>(EMPTY_RULE);
  const submit = useSubmit();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit.run(async () => {
      const body = createRuleBody(draft);
      const path = { id: policy.id };
      await unwrap(adminApi.POST('/policies/v1/url-filter/{id}/rules', { params: { path }, body }));
      onChange(await loadPolicy(policy.id));
      setDraft({ ...EMPTY_RULE, action: draft.action });
    });
  };
  return (
    <form className="card form" onSubmit={onSubmit} aria-labelledby="add-rule-h">
      <h3 id="add-rule-h">Add a rule</h3>
      <RuleFields draft={draft} set={setDraft} error={submit.error} />
      <FormErrorText error={submit.error} />
      <button type="submit" className="primary" disabled={submit.busy}>
        {submit.busy ? 'Adding…' : 'Add rule'}
      </button>
    </form>
  );
}

export function EditRule(props: {
  policy: Policy;
  rule: Rule;
  label: string;
  onChange: (p: Policy) => void;
  /** re-reads the policy (after a conflict) */
  refresh: () => Promise<void>;
  onDone: () => void;
}) {
  const { policy, rule, onChange, onDone } = props;
  const [draft, setDraft] = useState<RuleDraft>(() => draftOf(rule));
  const [saved, setSaved] = useState<string | null>(null);
  const submit = useSubmit();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [rule.id]);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(null);
    const body = updateRuleBody({ rule, draft, version: policy.version });
    if (!body) {
      setSaved('Nothing changed.');
      return;
    }
    void submit.run(async () => {
      const params = { path: { id: policy.id, ruleId: rule.id } };
      await saveOrExplainConflict(
        () => unwrap(adminApi.PUT('/policies/v1/url-filter/{id}/rules/{ruleId}', { params, body })),
        {
          refresh: props.refresh,
          version: policy.version,
          what: 'your change to this rule',
          next: 'check the rule and save again',
        },
      );
      onChange(await loadPolicy(policy.id));
      onDone();
    });
  };
  return (
    <form className="card form" onSubmit={onSubmit} aria-labelledby="edit-rule-h" data-testid="edit-rule">
      <h3 id="edit-rule-h" tabIndex={-1} ref={heading}>
        Edit the rule “{props.label}”
      </h3>
      <RuleFields draft={draft} set={setDraft} error={submit.error} />
      <label className="check">
        <input
          type="checkbox"
          checked={draft.enabled}
          onChange={(e) => setDraft({ ...draft, enabled: e.target.checked })}
        />{' '}
        Enabled (a disabled rule matches nothing)
      </label>
      <FormErrorText error={submit.error} />
      {saved ? <p role="status">{saved}</p> : null}
      <button type="submit" className="primary" disabled={submit.busy}>
        {submit.busy ? 'Saving…' : 'Save rule'}
      </button>{' '}
      <button type="button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}
