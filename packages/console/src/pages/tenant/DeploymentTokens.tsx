// A tenant's deployment tokens (docs/admin-api.md): exchanged by deployed agents for an API key. Create one (the
// `dpl_…` secret shown once with a copy button), list them (never the secret), revoke one and the keys minted
// from it. The list pages through the admin API's cursors.
import { useState, type FormEvent } from 'react';
import { adminApi, unwrap } from '../../api/client';
import type { DeploymentToken } from '../../api/types';
import { useLocalPagedList } from '../../app/use-paged';
import { ACTIONS_COLUMN, PagedTable } from '../../components/data-table';
import { Field, FormErrorText, useSubmit } from '../../components/form';
import { TokenLifeCells, useRevoke } from '../../components/revoke';
import { SecretOnce } from '../../components/secret-once';
import { formatNumber } from '../../lib/format';

export function DeploymentTokens({ tenantId }: { tenantId: string }) {
  const path = { id: tenantId };
  const list = useLocalPagedList(
    (cursor) =>
      unwrap(adminApi.GET('/tenants/v1/{id}/deployment-tokens', { params: { path, query: { limit: 20, ...cursor } } })),
    tenantId,
  );
  const [secret, setSecret] = useState<string | null>(null);
  const { submit, revoke } = useRevoke<DeploymentToken>({
    question: (t) => `Revoke ${t.name ?? t.token_prefix} and every API key minted from it?`,
    revoke: (t) =>
      unwrap(
        adminApi.DELETE('/tenants/v1/{id}/deployment-token/{token_id}', {
          params: { path: { ...path, token_id: t.id } },
        }),
      ),
    after: list.state.reload,
  });
  return (
    <section aria-labelledby="dpl-h">
      <h2 id="dpl-h">Deployment tokens</h2>
      {secret ? <SecretOnce label="New deployment token" secret={secret} onDone={() => setSecret(null)} /> : null}
      <CreateDeploymentToken
        tenantId={tenantId}
        onCreated={(token) => {
          setSecret(token);
          list.state.reload();
        }}
      />
      <FormErrorText error={submit.error} />
      <PagedTable
        list={list}
        empty="No deployment tokens."
        columns={['Name', 'Prefix', 'Status', { label: 'Uses', num: true }, 'Expires', 'Last used', ACTIONS_COLUMN]}
        row={(t) => (
          <>
            <td>{t.name ?? '—'}</td>
            <td>
              <code>{t.token_prefix}…</code>
            </td>
            <td>{t.status}</td>
            <td className="num">
              {formatNumber(t.use_count)}
              {t.max_uses !== null ? ` / ${formatNumber(t.max_uses)}` : ''}
            </td>
            <TokenLifeCells token={t} name={t.name ?? t.token_prefix} onRevoke={() => revoke(t)} busy={submit.busy} />
          </>
        )}
      />
    </section>
  );
}

function CreateDeploymentToken({ tenantId, onCreated }: { tenantId: string; onCreated: (token: string) => void }) {
  const [name, setName] = useState('');
  const [hours, setHours] = useState('168');
  const [maxUses, setMaxUses] = useState('');
  const submit = useSubmit();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit.run(async () => {
      const body = {
        expires_in_hours: Number(hours),
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(maxUses ? { max_uses: Number(maxUses) } : {}),
      };
      const t = await unwrap(
        adminApi.POST('/tenants/v1/{id}/deployment-token', { params: { path: { id: tenantId } }, body }),
      );
      onCreated(t.token ?? '');
      setName('');
      setMaxUses('');
    });
  };
  return (
    <form className="inline-form" onSubmit={onSubmit} aria-label="New deployment token">
      <Field label="Name" name="name" error={submit.error}>
        <input maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <Field label="Expires in (hours)" name="expires_in_hours" error={submit.error}>
        <input type="number" min={1} max={8760} required value={hours} onChange={(e) => setHours(e.target.value)} />
      </Field>
      <Field label="Maximum uses" name="max_uses" error={submit.error}>
        <input type="number" min={1} value={maxUses} onChange={(e) => setMaxUses(e.target.value)} />
      </Field>
      <button type="submit" className="primary" disabled={submit.busy}>
        Create deployment token
      </button>
      <FormErrorText error={submit.error} />
    </form>
  );
}
