// Tenants (platform admin, docs/console-pages.md "Admin"): every tenant with its status, paged through the admin API's
// cursors; register one (its first tenant token is shown once); suspend and resume from the list.
import { useState, type FormEvent } from 'react';
import { adminApi, unwrap } from '../../api/client';
import type { Tenant } from '../../api/types';
import { Link } from '../../app/router';
import { usePagedList } from '../../app/use-paged';
import { ACTIONS_COLUMN, PagedTable } from '../../components/data-table';
import { Field, FormErrorText, useSubmit } from '../../components/form';
import { SecretOnce } from '../../components/secret-once';
import { RelativeTime } from '../../components/time';
import { SuspendButton } from './SuspendButton';

export function TenantsPage() {
  const list = usePagedList<Tenant>((cursor) =>
    unwrap(adminApi.GET('/tenants/v1', { params: { query: { limit: 20, ...cursor } } })),
  );
  const [secret, setSecret] = useState<{ name: string; token: string } | null>(null);
  return (
    <section>
      <h1>Tenants</h1>
      {secret ? (
        <SecretOnce label={`Tenant token of ${secret.name}`} secret={secret.token} onDone={() => setSecret(null)} />
      ) : null}
      <RegisterTenant
        onCreated={(name, token) => {
          setSecret({ name, token });
          list.state.reload();
        }}
      />
      <h2>All tenants</h2>
      <PagedTable
        list={list}
        empty="No tenants yet: register the first one above."
        columns={['Name', 'Admin e-mail', 'Org', 'Status', 'Created', ACTIONS_COLUMN]}
        row={(t) => (
          <>
            <td>
              <Link to={`/tenants/${encodeURIComponent(t.id)}`}>{t.name}</Link>
            </td>
            <td>{t.admin_email}</td>
            <td>
              <code>{t.org_id}</code>
            </td>
            <td>
              {t.status}
              {t.suspended_at ? (
                <div className="muted">
                  since <RelativeTime value={t.suspended_at} />
                </div>
              ) : null}
            </td>
            <td>
              <RelativeTime value={t.created} />
            </td>
            <td>
              <SuspendButton tenant={t} onChange={list.state.reload} />
            </td>
          </>
        )}
      />
    </section>
  );
}

function RegisterTenant({ onCreated }: { onCreated: (name: string, token: string) => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const submit = useSubmit();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit.run(async () => {
      const t = await unwrap(
        adminApi.POST('/tenants/v1/register', { body: { name: name.trim(), admin_email: email.trim() } }),
      );
      onCreated(t.name, t.tenant_token.token ?? '');
      setName('');
      setEmail('');
    });
  };
  return (
    <form className="card form" onSubmit={onSubmit} aria-labelledby="new-tenant-h">
      <h2 id="new-tenant-h">Register a tenant</h2>
      <div className="form-row">
        <Field label="Name" name="name" error={submit.error}>
          <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Admin e-mail" name="admin_email" error={submit.error}>
          <input type="email" required maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
      </div>
      <FormErrorText error={submit.error} />
      <button type="submit" className="primary" disabled={submit.busy}>
        {submit.busy ? 'Registering…' : 'Register tenant'}
      </button>
    </form>
  );
}
