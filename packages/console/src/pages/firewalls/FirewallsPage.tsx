// Firewalls (docs/console-pages.md "Firewalls"): the tenant's registered firewalls with their connection status, paged
// through the admin API's cursors, and a registration form that opens the new firewall.
import { useState, type FormEvent } from 'react';
import { adminApi, unwrap } from '../../api/client';
import type { Firewall } from '../../api/types';
import { Link, useRouter } from '../../app/router';
import { usePagedList } from '../../app/use-paged';
import { PagedTable } from '../../components/data-table';
import { Field, FormErrorText, useSubmit } from '../../components/form';
import { RelativeTime } from '../../components/time';
import type { Draft } from '../firewall/firewall-changes';
import { ConnectionFields, VerifySslField } from './ConnectionFields';
import { firewallTypeLabel } from './firewall-types';

export function FirewallsPage() {
  const list = usePagedList<Firewall>((cursor) =>
    unwrap(adminApi.GET('/firewalls/v1', { params: { query: { limit: 20, ...cursor } } })),
  );
  return (
    <section>
      <h1>Firewalls</h1>
      <RegisterFirewall />
      <h2>Registered firewalls</h2>
      <PagedTable
        list={list}
        empty="No firewalls registered yet."
        columns={['Name', 'Type', 'Host', 'Status', 'Model / version', 'Last test']}
        row={(f) => (
          <>
            <td>
              <Link to={`/firewalls/${encodeURIComponent(f.id)}`}>{f.name}</Link>
            </td>
            <td>{firewallTypeLabel(f.type)}</td>
            <td>
              {f.host}:{f.port}
            </td>
            <td>{f.status}</td>
            <td>{[f.model, f.version].filter(Boolean).join(' ') || '—'}</td>
            <td>
              <RelativeTime value={f.last_test?.at ?? null} />
            </td>
          </>
        )}
      />
    </section>
  );
}

function RegisterFirewall() {
  const { navigate } = useRouter();
  const [form, setForm] = useState<Draft>({
    name: '',
    type: 'palo_alto',
    host: '',
    port: '443',
    api_token: '',
    verify_ssl: true,
  });
  const submit = useSubmit();
  const set = (k: keyof typeof form) => (v: string | boolean) => setForm((f) => ({ ...f, [k]: v }));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit.run(async () => {
      const body = { ...form, port: Number(form.port) };
      const created = await unwrap(adminApi.POST('/firewalls/v1', { body }));
      setForm((f) => ({ ...f, api_token: '' }));
      navigate(`/firewalls/${encodeURIComponent(created.id)}`);
    });
  };
  return (
    <form className="card form" onSubmit={onSubmit} aria-labelledby="new-fw">
      <h2 id="new-fw">Register a firewall</h2>
      <div className="form-row">
        <ConnectionFields draft={form} set={set} error={submit.error} registering />
        <Field
          label="API token"
          name="api_token"
          error={submit.error}
          hint="stored encrypted; only its last 4 characters are shown again"
        >
          <input
            type="password"
            autoComplete="off"
            required
            value={form.api_token}
            onChange={(e) => set('api_token')(e.target.value)}
          />
        </Field>
      </div>
      <VerifySslField draft={form} set={set} />
      <FormErrorText error={submit.error} />
      <button type="submit" className="primary" disabled={submit.busy}>
        {submit.busy ? 'Registering…' : 'Register firewall'}
      </button>
    </form>
  );
}
