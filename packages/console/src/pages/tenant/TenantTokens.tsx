// A tenant's tenant tokens (the credential its security team signs in with): mint one (shown once), list them
// (never the secret), revoke one. The list pages through the admin API's cursors.
import { useState } from 'react';
import { adminApi, unwrap } from '../../api/client';
import type { TenantToken } from '../../api/types';
import { useLocalPagedList } from '../../app/use-paged';
import { ACTIONS_COLUMN, PagedTable } from '../../components/data-table';
import { FormErrorText } from '../../components/form';
import { TokenLifeCells, useRevoke } from '../../components/revoke';
import { SecretOnce } from '../../components/secret-once';

export function TenantTokens({ tenantId }: { tenantId: string }) {
  const path = { id: tenantId };
  const list = useLocalPagedList(
    (cursor) => unwrap(adminApi.GET('/tenants/v1/{id}/tokens', { params: { path, query: { limit: 20, ...cursor } } })),
    tenantId,
  );
  const [secret, setSecret] = useState<string | null>(null);
  const { submit, revoke } = useRevoke<TenantToken>({
    question: (t) => `Revoke the tenant token ${t.name ?? t.id}? Sessions signed in with it end too.`,
    revoke: (t) =>
      unwrap(adminApi.DELETE('/tenants/v1/{id}/tokens/{token_id}', { params: { path: { ...path, token_id: t.id } } })),
    after: list.state.reload,
  });
  const mint = () =>
    void submit.run(async () => {
      const t = await unwrap(adminApi.POST('/tenants/v1/{id}/tokens', { params: { path }, body: {} }));
      setSecret(t.token ?? null);
      list.state.reload();
    });
  return (
    <section aria-labelledby="ttk-h">
      <h2 id="ttk-h">Tenant tokens</h2>
      {secret ? <SecretOnce label="New tenant token" secret={secret} onDone={() => setSecret(null)} /> : null}
      <p className="actions">
        <button type="button" onClick={mint} disabled={submit.busy}>
          Mint a tenant token
        </button>
      </p>
      <FormErrorText error={submit.error} />
      <PagedTable
        list={list}
        empty="No tenant tokens."
        columns={['Id', 'Name', 'Status', 'Expires', 'Last used', ACTIONS_COLUMN]}
        row={(t) => (
          <>
            <td>
              <code>{t.id}</code>
            </td>
            <td>{t.name ?? '—'}</td>
            <td>{t.status}</td>
            <TokenLifeCells token={t} name={t.name ?? t.id} onRevoke={() => revoke(t)} busy={submit.busy} />
          </>
        )}
      />
    </section>
  );
}
