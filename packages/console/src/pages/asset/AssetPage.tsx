// The asset page (docs/console.md "Pages"): summary, the effective score explained as a chart of each finding's
// contribution, findings with CVE / ATLAS links and triage, the AI-BOM (components, lineage, downloads in every
// format), history with the AI-BOM diff, and matching threats. Each section loads on its own.
import { publicApi, unwrap } from '../../api/client';
import { useAsync } from '../../app/use-async';
import { BarChart } from '../../components/charts';
import { SeverityBadge } from '../../components/severity';
import { Async } from '../../components/states';
import { RelativeTime } from '../../components/time';
import { formatNumber } from '../../lib/format';
import { AiBomSection } from './AiBomSection';
import { FindingsSection } from './FindingsSection';
import { HistorySection } from './HistorySection';
import { ThreatsSection } from './ThreatsSection';

export function AssetPage({ fingerprint }: { fingerprint: string }) {
  const asset = useAsync(
    () =>
      unwrap(
        publicApi.GET('/v1/assets/{fingerprint}', {
          params: { path: { fingerprint }, query: { 'expand[]': ['findings'] } },
        }),
      ),
    fingerprint,
  );
  return (
    <Async state={asset}>
      {(a) => {
        const enriched = a.enrichment_status === 'enriched' || a.enrichment_status === 'stale';
        const findings = a.findings ?? [];
        return (
          <article aria-labelledby="asset-title">
            <h1 id="asset-title">{a.name ?? a.fingerprint}</h1>
            <dl className="kv">
              <dt>Fingerprint</dt>
              <dd>
                <code>{a.fingerprint}</code>
              </dd>
              <dt>Type</dt>
              <dd>{a.asset_type}</dd>
              <dt>Version</dt>
              <dd>{a.version ?? '—'}</dd>
              <dt>Publisher</dt>
              <dd>{a.publisher ?? '—'}</dd>
              <dt>Status</dt>
              <dd>{a.enrichment_status}</dd>
              <dt>Risk score</dt>
              <dd>
                {formatNumber(a.intrinsic_risk_score)} <SeverityBadge severity={a.intrinsic_risk_severity} />
              </dd>
              <dt>Your effective score</dt>
              <dd>
                {formatNumber(a.effective_risk_score)} <SeverityBadge severity={a.effective_risk_severity} />
              </dd>
              <dt>Signals</dt>
              <dd>{formatNumber(a.signal_count)}</dd>
              <dt>Last seen</dt>
              <dd>
                <RelativeTime value={a.last_seen} />
              </dd>
              <dt>Enriched</dt>
              <dd>
                <RelativeTime value={a.enriched_at} />
              </dd>
            </dl>
            {enriched ? (
              <>
                <section aria-labelledby="score-title">
                  <h2 id="score-title">Score explained</h2>
                  {findings.length === 0 ? (
                    <p>No finding contributes to the score.</p>
                  ) : (
                    <BarChart
                      title="Contribution of each finding to the score"
                      bars={[...findings]
                        .sort((x, y) => y.score_contribution - x.score_contribution)
                        .map((f) => ({
                          label: `${f.rule_id} ${f.title}`,
                          value: Math.round(f.score_contribution * 10) / 10,
                          className: f.counts_toward_effective_score ? `bar-${f.effective_severity}` : 'bar-muted',
                        }))}
                    />
                  )}
                  <p className="muted">Grey bars are findings your org excluded (triage or suppression).</p>
                </section>
                <FindingsSection fingerprint={a.fingerprint} findings={findings} onChanged={asset.reload} />
                <AiBomSection fingerprint={a.fingerprint} />
                <HistorySection fingerprint={a.fingerprint} />
              </>
            ) : (
              <p className="state">
                {a.enrichment_status === 'failed'
                  ? 'Enrichment failed; it is retried when new signals arrive.'
                  : 'Waiting for enrichment: findings, the AI-BOM and history appear once it is enriched.'}
              </p>
            )}
            <ThreatsSection fingerprint={a.fingerprint} />
          </article>
        );
      }}
    </Async>
  );
}
