// The Overview's cards (docs/console.md "Pages"), drawn from GET /v1/overview's figures as they come: nothing is
// counted here, the API aggregates every asset of the org (docs/public-api.md "Overview").
import type { Overview } from '../../api/types';
import { Link } from '../../app/router';
import { BarChart, Histogram } from '../../components/charts';
import { SeverityBadge } from '../../components/severity';
import { Empty } from '../../components/states';
import { RelativeTime } from '../../components/time';
import { formatNumber } from '../../lib/format';
import { SEVERITIES } from '../../lib/severity';

/** The days of the window that had a risk change, oldest first, and the window's totals. */
export function riskChangeBars(changes: Overview['risk_changes']) {
  const days = changes.data.filter((d) => d.changes > 0);
  const sum = (k: 'changes' | 'up' | 'down') => changes.data.reduce((n, d) => n + d[k], 0);
  return {
    bars: days.map((d) => ({ label: d.day, value: d.changes, className: d.up >= d.down ? 'bar-high' : 'bar-low' })),
    total: sum('changes'),
    up: sum('up'),
    down: sum('down'),
  };
}

export function OverviewBody({ overview }: { overview: Overview }) {
  const { assets } = overview;
  const changes = riskChangeBars(overview.risk_changes);
  const triaged = SEVERITIES.some((s) => assets.by_effective_severity[s] !== assets.by_intrinsic_severity[s]);
  return (
    <>
      <p className="muted" data-overview="summary">
        {formatNumber(assets.total)} assets observed, {formatNumber(assets.scored)} scored.
      </p>
      <div className="grid">
        <div className="card">
          <h2>Assets by effective severity</h2>
          <BarChart
            title="Assets by effective severity"
            bars={SEVERITIES.map((s) => ({
              label: s,
              value: assets.by_effective_severity[s],
              className: `bar-${s}`,
            }))}
          />
          {triaged ? (
            <p className="muted">
              Before triage:{' '}
              {SEVERITIES.map((s) => `${s} ${formatNumber(assets.by_intrinsic_severity[s])}`).join(' · ')}
            </p>
          ) : null}
        </div>
        <div className="card">
          <h2>Effective score distribution</h2>
          <Histogram
            title="Assets per effective score band of 10"
            bins={overview.score_histogram.map((b) => ({ from: b.from, to: b.to, count: b.effective }))}
          />
        </div>
        <div className="card">
          <h2>Risk changes over time</h2>
          <p className="muted">
            {formatNumber(changes.total)} in the last {formatNumber(overview.risk_changes.days)} days (UTC):{' '}
            {formatNumber(changes.up)} up, {formatNumber(changes.down)} down.
          </p>
          {changes.bars.length === 0 ? (
            <Empty>No risk changes in this period.</Empty>
          ) : (
            <BarChart title="Risk changes per day" bars={changes.bars} />
          )}
        </div>
        <div className="card">
          <h2>Enrichment backlog</h2>
          <BarChart
            title="Assets waiting for enrichment, failed or stale"
            bars={(['pending', 'failed', 'stale'] as const).map((s) => ({
              label: s,
              value: overview.enrichment_backlog[s],
            }))}
          />
        </div>
        <div className="card">
          <h2>Top rules</h2>
          <TopList
            items={overview.top_rules.map((r) => ({ key: r.rule_id, count: r.assets }))}
            empty="No open findings."
          />
        </div>
        <div className="card">
          <h2>Top ATLAS techniques</h2>
          <TopList
            items={overview.top_attack_techniques.map((t) => ({ key: t.id, count: t.assets }))}
            empty="No ATLAS techniques in the open findings."
            atlas
          />
        </div>
        <div className="card">
          <h2>Recently matched threats</h2>
          {overview.recent_threats.length === 0 ? (
            <Empty>No threat matches any of the assets.</Empty>
          ) : (
            <ul>
              {overview.recent_threats.map((t) => (
                <li key={t.id}>
                  <Link to={`/threats/${encodeURIComponent(t.id)}`}>{t.title}</Link>{' '}
                  <SeverityBadge severity={t.severity} /> {formatNumber(t.matched_assets)}{' '}
                  {t.matched_assets === 1 ? 'asset' : 'assets'}, <RelativeTime value={t.last_matched} />
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </>
  );
}

function TopList({
  items,
  empty,
  atlas,
}: {
  items: Array<{ key: string; count: number }>;
  empty: string;
  atlas?: boolean;
}) {
  if (items.length === 0) return <Empty>{empty}</Empty>;
  return (
    <ol>
      {items.map((i) => (
        <li key={i.key}>
          {atlas ? <AtlasLink id={i.key} /> : <code>{i.key}</code>} — {formatNumber(i.count)}{' '}
          {i.count === 1 ? 'asset' : 'assets'}
        </li>
      ))}
    </ol>
  );
}

export function AtlasLink({ id }: { id: string }) {
  return (
    <a href={`https://atlas.mitre.org/techniques/${encodeURIComponent(id)}`} rel="noreferrer noopener" target="_blank">
      {id}
    </a>
  );
}
