// The policies assigned to one firewall and the sync status of each (lib/sync.ts). The admin API has no
// per-firewall assignment list, so this reads the tenant's policies (first 100) and keeps this firewall's
// assignments; it polls while one is still pending or being removed.
import { adminApi, unwrap } from '../../api/client';
import type { Policy } from '../../api/types';
import { Link } from '../../app/router';
import { useResource } from '../../app/use-resource';
import { DataTable } from '../../components/data-table';
import { Async, Empty } from '../../components/states';
import { SyncCells, SYNC_COLUMNS } from '../../components/sync-cells';
import { inFlight } from '../../lib/sync';

async function loadPolicies(): Promise<Policy[]> {
  return (await unwrap(adminApi.GET('/policies/v1/url-filter', { params: { query: { limit: 100 } } }))).data;
}

export function FirewallPolicies({ firewallId }: { firewallId: string }) {
  const assignedHere = (ps: Policy[]) =>
    ps.flatMap((p) => p.assignments.filter((a) => a.firewall_id === firewallId).map((a) => ({ policy: p, a })));
  const policies = useResource(loadPolicies, {
    key: `fw-policies-${firewallId}`,
    pollWhile: (ps) => inFlight(assignedHere(ps).map((x) => x.a)),
  });
  return (
    <section aria-labelledby="fw-pol-h">
      <h2 id="fw-pol-h">Assigned policies</h2>
      <Async state={policies.state}>
        {(ps) => {
          const rows = assignedHere(ps);
          if (rows.length === 0)
            return (
              <Empty>
                No policy is assigned to this firewall. Assign one from its <Link to="/policies">policy page</Link>.
              </Empty>
            );
          return (
            <DataTable
              columns={['Policy', ...SYNC_COLUMNS]}
              items={rows}
              keyOf={({ a }) => a.id}
              row={({ policy, a }) => (
                <>
                  <td>
                    <Link to={`/policies/${encodeURIComponent(policy.id)}`}>{policy.name}</Link>
                  </td>
                  <SyncCells a={a} />
                </>
              )}
            />
          );
        }}
      </Async>
    </section>
  );
}
