// One tenant (platform admin, docs/console-pages.md "Admin"): details, suspend / resume, its deployment tokens and its
// tenant tokens (each secret shown once when created; revoke).
import { adminApi, unwrap } from '../../api/client';
import { Link } from '../../app/router';
import { useResource } from '../../app/use-resource';
import { Async } from '../../components/states';
import { RelativeTime } from '../../components/time';
import { SuspendButton } from '../tenants/SuspendButton';
import { DeploymentTokens } from './DeploymentTokens';
import { TenantTokens } from './TenantTokens';

export function TenantPage({ id }: { id: string }) {
  const tenant = useResource(() => unwrap(adminApi.GET('/tenants/v1/{id}', { params: { path: { id } } })), { key: id });
  return (
    <Async state={tenant.state}>
      {(t) => (
        <section>
          <p>
            <Link to="/tenants">← Tenants</Link>
          </p>
          <h1>{t.name}</h1>
          <dl className="kv">
            <dt>Id</dt>
            <dd>
              <code>{t.id}</code>
            </dd>
            <dt>Org</dt>
            <dd>
              <code>{t.org_id}</code>
            </dd>
            <dt>Admin e-mail</dt>
            <dd>{t.admin_email}</dd>
            <dt>Status</dt>
            <dd>
              {t.status}
              {t.suspended_at ? (
                <>
                  {' '}
                  since <RelativeTime value={t.suspended_at} />
                </>
              ) : null}
            </dd>
            <dt>Created</dt>
            <dd>
              <RelativeTime value={t.created} />
            </dd>
          </dl>
          <p className="actions">
            <SuspendButton tenant={t} onChange={tenant.set} />
          </p>
          <DeploymentTokens tenantId={t.id} />
          <TenantTokens tenantId={t.id} />
        </section>
      )}
    </Async>
  );
}
