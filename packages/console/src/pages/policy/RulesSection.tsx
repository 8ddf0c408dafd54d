// A policy's rules: the reorderable list (components/reorder-list.tsx), edit, add and delete (RuleForm.tsx). Every
// change answers the whole policy or is followed by a re-read, which replaces the page's copy. A reorder or an edit
// sends expected_version; a 409 version_conflict (someone changed the policy meanwhile) is explained and the policy
// reloaded, so the next attempt starts from the truth (version-conflict.ts).
import { useState } from 'react';
import { adminApi, unwrap } from '../../api/client';
import type { Policy, Rule } from '../../api/types';
import { ReorderList } from '../../components/reorder-list';
import { Empty } from '../../components/states';
import { formatNumber } from '../../lib/format';
import { loadPolicy } from './policy-api';
import { AddRule, EditRule } from './RuleForm';
import { conflictMessage, isVersionConflict } from './version-conflict';

export function ruleLabel(rule: Rule): string {
  return rule.name ?? `${rule.action} rule ${rule.position}`;
}

export function RulesSection({
  policy,
  onChange,
  refresh,
}: {
  policy: Policy;
  onChange: (p: Policy) => void;
  /** re-reads the policy into the page (after a conflict) */
  refresh: () => Promise<void>;
}) {
  const [notice, setNotice] = useState<{ kind: 'error' | 'info'; text: string } | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const byId = new Map(policy.rules.map((r) => [r.id, r]));
  const path = { id: policy.id };
  const edited = editing ? byId.get(editing) : undefined;

  const commit = async (order: string[]) => {
    setNotice(null);
    try {
      const body = { rule_ids: order, expected_version: policy.version };
      onChange(await unwrap(adminApi.POST('/policies/v1/url-filter/{id}/rules/reorder', { params: { path }, body })));
      setNotice({ kind: 'info', text: 'Order saved.' });
    } catch (err) {
      if (isVersionConflict(err)) {
        setNotice({
          kind: 'error',
          text: conflictMessage({ version: policy.version, what: 'your move', next: 'check the order and move again' }),
        });
        await refresh();
      } else setNotice({ kind: 'error', text: err instanceof Error ? err.message : String(err) });
      throw err;
    }
  };
  const remove = async (rule: Rule) => {
    if (!window.confirm(`Delete the rule “${ruleLabel(rule)}”?`)) return;
    try {
      await unwrap(
        adminApi.DELETE('/policies/v1/url-filter/{id}/rules/{ruleId}', {
          params: { path: { ...path, ruleId: rule.id } },
        }),
      );
      if (editing === rule.id) setEditing(null);
      onChange(await loadPolicy(policy.id));
    } catch (err) {
      setNotice({ kind: 'error', text: err instanceof Error ? err.message : String(err) });
    }
  };

  return (
    <section aria-labelledby="rules-h">
      <h2 id="rules-h">Rules ({formatNumber(policy.rules.length)})</h2>
      <p className="muted">
        The first matching rule decides; when none matches, the default action ({policy.default_action}) applies.
      </p>
      {notice ? (
        <p
          className={`state ${notice.kind === 'error' ? 'error' : ''}`}
          role={notice.kind === 'error' ? 'alert' : 'status'}
        >
          {notice.text}
        </p>
      ) : null}
      {policy.rules.length === 0 ? (
        <Empty>No rules: every URL gets the default action.</Empty>
      ) : (
        <ReorderList
          label="Rules in order"
          ids={policy.rules.map((r) => r.id)}
          labelOf={(id) => (byId.get(id) ? ruleLabel(byId.get(id)!) : id)}
          renderItem={(id) => <RuleSummary rule={byId.get(id)!} onDelete={remove} onEdit={(r) => setEditing(r.id)} />}
          onCommit={commit}
        />
      )}
      {edited ? (
        <EditRule
          key={edited.id}
          policy={policy}
          rule={edited}
          label={ruleLabel(edited)}
          onChange={(p) => {
            onChange(p);
            setNotice({ kind: 'info', text: `Rule “${ruleLabel(edited)}” saved.` });
          }}
          refresh={refresh}
          onDone={() => setEditing(null)}
        />
      ) : null}
      <AddRule policy={policy} onChange={onChange} />
    </section>
  );
}

function RuleSummary(props: { rule: Rule; onDelete: (r: Rule) => Promise<void>; onEdit: (r: Rule) => void }) {
  const { rule } = props;
  const matches = [
    rule.domains.length ? `domains: ${rule.domains.join(', ')}` : '',
    rule.categories.length ? `categories: ${rule.categories.join(', ')}` : '',
    rule.min_risk_score !== null ? `risk score ≥ ${rule.min_risk_score}` : '',
    rule.min_asset_severity ? `risky assets ≥ ${rule.min_asset_severity}` : '',
  ].filter(Boolean);
  return (
    <div className="rule">
      <strong>{ruleLabel(rule)}</strong> <span className={`action action-${rule.action}`}>{rule.action}</span>
      {rule.enabled ? null : <span className="muted"> (disabled)</span>}
      <div className="muted">{matches.length ? matches.join(' · ') : 'matches nothing yet'}</div>
      <button
        type="button"
        className="link"
        onClick={() => props.onEdit(rule)}
        aria-label={`Edit rule ${ruleLabel(rule)}`}
      >
        Edit
      </button>{' '}
      <button
        type="button"
        className="link"
        onClick={() => void props.onDelete(rule)}
        aria-label={`Delete rule ${ruleLabel(rule)}`}
      >
        Delete
      </button>
    </div>
  );
}
