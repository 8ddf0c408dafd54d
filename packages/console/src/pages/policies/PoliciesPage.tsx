// URL-filter policies (docs/console-pages.md "URL-filter policies"): the tenant's policies, newest first, paged through
// the admin API's cursors, and a form that creates one and opens it.
import { useState, type FormEvent } from 'react';
import { adminApi, unwrap } from '../../api/client';
import { FILTER_ACTIONS, type FilterAction, type Policy } from '../../api/types';
import { Link, useRouter } from '../../app/router';
import { usePagedList } from '../../app/use-paged';
import { PagedTable } from '../../components/data-table';
import { Field, FormErrorText, useSubmit } from '../../components/form';
import { RelativeTime } from '../../components/time';
import { formatNumber } from '../../lib/format';
import { syncSummary } from '../../lib/sync';

export function PoliciesPage() {
  const list = usePagedList<Policy>((cursor) =>
    unwrap(adminApi.GET('/policies/v1/url-filter', { params: { query: { limit: 20, ...cursor } } })),
  );
  return (
    <section>
      <h1>URL-filter policies</h1>
      <CreatePolicy />
      <h2>Policies</h2>
      <PagedTable
        list={list}
        empty="No policies yet: create one above."
        columns={[
          'Name',
          'Default action',
          { label: 'Rules', num: true },
          'Firewalls',
          { label: 'Version', num: true },
          'Updated',
        ]}
        row={(p) => (
          <>
            <td>
              <Link to={`/policies/${encodeURIComponent(p.id)}`}>{p.name}</Link>
            </td>
            <td>{p.default_action}</td>
            <td className="num">{formatNumber(p.rules.length)}</td>
            <td>{syncSummary(p.assignments)}</td>
            <td className="num">{formatNumber(p.version)}</td>
            <td>
              <RelativeTime value={p.updated} />
            </td>
          </>
        )}
      />
    </section>
  );
}

function CreatePolicy() {
  const { navigate } = useRouter();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [defaultAction, setDefaultAction] = useState<FilterAction>('allow');
  const submit = useSubmit();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit.run(async () => {
      const body = { name, default_action: defaultAction, rules: [], ...(description ? { description } : {}) };
      const created = await unwrap(adminApi.POST('/policies/v1/url-filter', { body }));
      navigate(`/policies/${encodeURIComponent(created.id)}`);
    });
  };
  return (
    <form className="card form" onSubmit={onSubmit} aria-labelledby="new-policy">
      <h2 id="new-policy">New policy</h2>
      <div className="form-row">
        <Field label="Name" name="name" error={submit.error}>
          <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Default action" name="default_action" error={submit.error}>
          <select value={defaultAction} onChange={(e) => setDefaultAction(e.target.value as FilterAction)}>
            {FILTER_ACTIONS.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </Field>
        <Field label="Description" name="description" error={submit.error}>
          <input maxLength={1000} value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
      </div>
      <FormErrorText error={submit.error} />
      <button type="submit" className="primary" disabled={submit.busy || name.trim() === ''}>
        {submit.busy ? 'Creating…' : 'Create policy'}
      </button>
    </form>
  );
}
