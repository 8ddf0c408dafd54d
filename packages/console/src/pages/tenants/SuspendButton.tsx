// Suspend (every credential of the tenant refused at once) or resume a tenant, after a confirmation.
import { adminApi, unwrap } from '../../api/client';
import type { Tenant } from '../../api/types';
import { FormErrorText, useSubmit } from '../../components/form';

export function SuspendButton({ tenant, onChange }: { tenant: Tenant; onChange: (t: Tenant) => void }) {
  const submit = useSubmit();
  const suspended = tenant.status === 'suspended';
  const act = () => {
    const question = suspended
      ? `Resume ${tenant.name}? Its active credentials work again (revoked and expired ones stay so).`
      : `Suspend ${tenant.name}? Every tenant token, deployment token and API key of it is refused at once.`;
    if (!window.confirm(question)) return;
    void submit.run(async () => {
      const params = { params: { path: { id: tenant.id } } };
      onChange(
        await unwrap(
          suspended
            ? adminApi.POST('/tenants/v1/{id}/reactivate', params)
            : adminApi.POST('/tenants/v1/{id}/suspend', params),
        ),
      );
    });
  };
  return (
    <>
      <button type="button" className={suspended ? '' : 'danger'} onClick={act} disabled={submit.busy}>
        {suspended ? 'Resume' : 'Suspend'}
        <span className="visually-hidden"> {tenant.name}</span>
      </button>
      <FormErrorText error={submit.error} />
    </>
  );
}
