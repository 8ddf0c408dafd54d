// API keys (tenant session, docs/console-pages.md "Keys"): the org's public-API keys, newest first and paged through
// the admin API's cursors (never the secret); mint one with chosen scopes, mode and lifetime (the `rk_…` secret
// shown once with a copy button); revoke one. Keys exchanged from a deployment token are revoked through it.
import { useState, type FormEvent } from 'react';
import { adminApi, unwrap } from '../../api/client';
import type { ApiKey } from '../../api/types';
import { useSession } from '../../app/session';
import { usePagedList } from '../../app/use-paged';
import { ACTIONS_COLUMN, PagedTable } from '../../components/data-table';
import { Field, FormErrorText, useSubmit } from '../../components/form';
import { RevokeButton, useRevoke } from '../../components/revoke';
import { SecretOnce } from '../../components/secret-once';
import { RelativeTime } from '../../components/time';
import { describeScope, SCOPE_LIST, type Scope } from '../../lib/scopes';

export function KeysPage() {
  const list = usePagedList<ApiKey>((cursor) =>
    unwrap(adminApi.GET('/keys/v1', { params: { query: { limit: 20, ...cursor } } })),
  );
  const [minted, setMinted] = useState<ApiKey | null>(null);
  // the key admin-api minted for this console session (docs/console.md): revoked at sign-out, not from here
  const { session } = useSession();
  const ownKey = session ? `console session ${session.id}` : null;
  const { submit, revoke } = useRevoke<ApiKey>({
    question: (k) => `Revoke the key ${k.name ?? k.redacted_key}? The public API refuses it within seconds.`,
    revoke: (k) => unwrap(adminApi.DELETE('/keys/v1/{id}', { params: { path: { id: k.id } } })),
    after: list.state.reload,
  });
  return (
    <section>
      <h1>API keys</h1>
      {minted?.key ? (
        <SecretOnce label={`API key ${minted.name ?? ''}`} secret={minted.key} onDone={() => setMinted(null)} />
      ) : null}
      <MintKey
        onMinted={(k) => {
          setMinted(k);
          list.state.reload();
        }}
      />
      <h2>Keys of the organisation</h2>
      <FormErrorText error={submit.error} />
      <PagedTable
        list={list}
        empty="No API keys yet."
        columns={['Name', 'Key', 'Scopes', 'Mode', 'Status', 'Expires', 'Last used', ACTIONS_COLUMN]}
        row={(k) => (
          <>
            <td>{k.name ?? '—'}</td>
            <td>
              <code>{k.redacted_key}</code>
            </td>
            <td>{k.scopes.join(', ')}</td>
            <td>{k.livemode ? 'live' : 'test'}</td>
            <td>{k.status}</td>
            <td>{k.expires_at ? <RelativeTime value={k.expires_at} /> : 'never'}</td>
            <td>
              <RelativeTime value={k.last_used_at} />
            </td>
            <td>
              {k.status !== 'active' ? null : k.name === ownKey ? (
                <span className="muted">this console session&apos;s key (revoked at sign-out)</span>
              ) : k.deployment_token_id ? (
                <span className="muted">revoke through its deployment token</span>
              ) : (
                <RevokeButton name={k.name ?? k.redacted_key} onClick={() => revoke(k)} disabled={submit.busy} />
              )}
            </td>
          </>
        )}
      />
    </section>
  );
}

function MintKey({ onMinted }: { onMinted: (k: ApiKey) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['signals:write']);
  const [livemode, setLivemode] = useState(true);
  const [days, setDays] = useState('90');
  const submit = useSubmit();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit.run(async () => {
      const body = { name: name.trim(), scopes, livemode, ...(days ? { expires_in_days: Number(days) } : {}) };
      onMinted(await unwrap(adminApi.POST('/keys/v1', { body })));
      setName('');
    });
  };
  return (
    <form className="card form" onSubmit={onSubmit} aria-labelledby="mint-h">
      <h2 id="mint-h">Mint a key</h2>
      <div className="form-row">
        <Field label="Name" name="name" error={submit.error}>
          <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Expires in (days)" name="expires_in_days" error={submit.error} hint="empty: never">
          <input type="number" min={1} max={365} value={days} onChange={(e) => setDays(e.target.value)} />
        </Field>
      </div>
      <fieldset>
        <legend>Scopes (least privilege: only what the integration needs)</legend>
        <div className="form-row">
          {SCOPE_LIST.map((s) => (
            <label key={s} className="check" title={describeScope(s)}>
              <input
                type="checkbox"
                checked={scopes.includes(s)}
                onChange={(e) => setScopes(e.target.checked ? [...scopes, s] : scopes.filter((x) => x !== s))}
              />{' '}
              {s}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Mode</legend>
        <label className="check">
          <input type="radio" name="mode" checked={livemode} onChange={() => setLivemode(true)} /> live (rk_live_…)
        </label>{' '}
        <label className="check">
          <input type="radio" name="mode" checked={!livemode} onChange={() => setLivemode(false)} /> test (rk_test_…)
        </label>
      </fieldset>
      <FormErrorText error={submit.error} />
      <button type="submit" className="primary" disabled={submit.busy || scopes.length === 0 || name.trim() === ''}>
        {submit.busy ? 'Minting…' : 'Mint key'}
      </button>
    </form>
  );
}
