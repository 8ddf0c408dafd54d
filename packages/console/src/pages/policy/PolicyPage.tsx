// One URL-filter policy (docs/console-pages.md "URL-filter policies"): its settings (rename, default action), its
// rules in order (drag or keyboard to reorder, edit; a version conflict is explained and the policy reloaded), its firewalls with each one's sync status
// (polled while a push or removal is under way), and a box that tests a URL against the tenant's policies.
import { Link } from '../../app/router';
import { useResource } from '../../app/use-resource';
import { Async } from '../../components/states';
import { RelativeTime } from '../../components/time';
import { formatNumber } from '../../lib/format';
import { inFlight } from '../../lib/sync';
import { AssignmentsSection } from './AssignmentsSection';
import { PolicySettings } from './PolicySettings';
import { RulesSection } from './RulesSection';
import { UrlTester } from './UrlTester';
import { loadPolicy } from './policy-api';

export function PolicyPage({ id }: { id: string }) {
  const policy = useResource(() => loadPolicy(id), { key: id, pollWhile: (p) => inFlight(p.assignments) });
  // after a version conflict: the policy as it is now, quietly; a failed re-read falls back to a full reload
  const refresh = () => policy.refresh().catch(policy.state.reload);
  return (
    <Async state={policy.state}>
      {(p) => (
        <section>
          <p>
            <Link to="/policies">← URL-filter policies</Link>
          </p>
          <h1>{p.name}</h1>
          <dl className="kv">
            <dt>Id</dt>
            <dd>
              <code>{p.id}</code>
            </dd>
            <dt>Default action</dt>
            <dd>{p.default_action}</dd>
            <dt>Version</dt>
            <dd data-testid="policy-version">{formatNumber(p.version)}</dd>
            <dt>Description</dt>
            <dd>{p.description ?? '—'}</dd>
            <dt>Updated</dt>
            <dd>
              <RelativeTime value={p.updated} />
            </dd>
          </dl>
          <PolicySettings policy={p} onChange={policy.set} refresh={refresh} />
          <RulesSection policy={p} onChange={policy.set} refresh={refresh} />
          <AssignmentsSection policy={p} onChange={policy.set} />
          <UrlTester policyId={p.id} ruleName={(id) => p.rules.find((r) => r.id === id)?.name ?? id} />
        </section>
      )}
    </Async>
  );
}
