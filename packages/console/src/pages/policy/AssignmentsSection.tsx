// A policy's firewalls: each assignment's sync status in words (lib/sync.ts), versions, last sync and error;
// assign to more firewalls, unassign (the removal runs in the worker; the page polls until it settles).
import { useState, type FormEvent } from 'react';
import { adminApi, unwrap } from '../../api/client';
import type { Firewall, Policy } from '../../api/types';
import { Link } from '../../app/router';
import { useAsync } from '../../app/use-async';
import { ACTIONS_COLUMN, DataTable } from '../../components/data-table';
import { Field, FormErrorText, useSubmit } from '../../components/form';
import { Async, Empty } from '../../components/states';
import { SyncCells, SYNC_COLUMNS } from '../../components/sync-cells';
import { loadFirewalls, loadPolicy } from './policy-api';

export function AssignmentsSection({ policy, onChange }: { policy: Policy; onChange: (p: Policy) => void }) {
  const firewalls = useAsync(loadFirewalls, 'firewalls');
  const submit = useSubmit();
  const path = { id: policy.id };
  const unassign = (fwId: string, name: string) => {
    if (!window.confirm(`Remove this policy from ${name}?`)) return;
    void submit.run(async () => {
      await unwrap(
        adminApi.DELETE('/policies/v1/url-filter/{id}/assign/{fwId}', { params: { path: { ...path, fwId } } }),
      );
      onChange(await loadPolicy(policy.id));
    });
  };
  return (
    <section aria-labelledby="assign-h">
      <h2 id="assign-h">Firewalls</h2>
      <Async state={firewalls}>
        {(fws) => {
          const names = new Map(fws.map((f) => [f.id, f.name]));
          const assigned = new Set(policy.assignments.map((a) => a.firewall_id));
          return (
            <>
              {policy.assignments.length === 0 ? (
                <Empty>Not assigned to any firewall.</Empty>
              ) : (
                <DataTable
                  columns={['Firewall', ...SYNC_COLUMNS, ACTIONS_COLUMN]}
                  items={policy.assignments}
                  keyOf={(a) => a.id}
                  rowData={(a) => ({ 'data-firewall': a.firewall_id })}
                  row={(a) => {
                    const name = names.get(a.firewall_id) ?? a.firewall_id;
                    return (
                      <>
                        <td>
                          <Link to={`/firewalls/${encodeURIComponent(a.firewall_id)}`}>{name}</Link>
                        </td>
                        <SyncCells a={a} />
                        <td>
                          <button type="button" onClick={() => unassign(a.firewall_id, name)} disabled={submit.busy}>
                            Unassign<span className="visually-hidden"> {name}</span>
                          </button>
                        </td>
                      </>
                    );
                  }}
                />
              )}
              <AssignForm policy={policy} free={fws.filter((f) => !assigned.has(f.id))} onChange={onChange} />
              <FormErrorText error={submit.error} />
            </>
          );
        }}
      </Async>
    </section>
  );
}

function AssignForm({ policy, free, onChange }: { policy: Policy; free: Firewall[]; onChange: (p: Policy) => void }) {
  const [fwId, setFwId] = useState('');
  const submit = useSubmit();
  if (free.length === 0)
    return (
      <p className="muted">
        Every firewall has this policy. <Link to="/firewalls">Register a firewall</Link> to assign it elsewhere.
      </p>
    );
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const id = fwId || free[0]!.id;
    void submit.run(async () => {
      const body = { firewall_ids: [id] };
      onChange(
        await unwrap(
          adminApi.POST('/policies/v1/url-filter/{id}/assign', { params: { path: { id: policy.id } }, body }),
        ),
      );
      setFwId('');
    });
  };
  return (
    <form className="inline-form" onSubmit={onSubmit}>
      <Field label="Assign to firewall" name="firewall_ids" error={submit.error}>
        <select value={fwId || free[0]!.id} onChange={(e) => setFwId(e.target.value)}>
          {free.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name} ({f.host})
            </option>
          ))}
        </select>
      </Field>
      <button type="submit" className="primary" disabled={submit.busy}>
        Assign
      </button>
      <FormErrorText error={submit.error} />
    </form>
  );
}
