// The asset's enrichment history (newest first, paged) and the AI-BOM diff previous → current.
import { useState } from 'react';
import { ConsoleApiError, publicApi, unwrap } from '../../api/client';
import { useAsync } from '../../app/use-async';
import { Pager } from '../../components/pager';
import { SeverityBadge } from '../../components/severity';
import { Async, Empty } from '../../components/states';
import { RelativeTime } from '../../components/time';
import { formatNumber } from '../../lib/format';
import { pageState, type Cursor } from '../../lib/paging';

export function HistorySection({ fingerprint }: { fingerprint: string }) {
  const [cursor, setCursor] = useState<Cursor>({});
  const history = useAsync(
    () =>
      unwrap(
        publicApi.GET('/v1/assets/{fingerprint}/history', {
          params: { path: { fingerprint }, query: { limit: 10, ...cursor } },
        }),
      ),
    `${fingerprint} ${JSON.stringify(cursor)}`,
  );
  const diff = useAsync(
    () =>
      unwrap(publicApi.GET('/v1/assets/{fingerprint}/aibom/diff', { params: { path: { fingerprint } } })).catch(
        (err: unknown) => {
          // one AI-BOM version so far: nothing to compare yet (an empty state, not an error)
          if (err instanceof ConsoleApiError && err.code === 'resource_missing') return null;
          throw err;
        },
      ),
    fingerprint,
  );
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <Async state={history}>
        {(page) =>
          page.data.length === 0 ? (
            <Empty>No history yet.</Empty>
          ) : (
            <>
              <ol>
                {page.data.map((e) => (
                  <li key={e.id}>
                    <RelativeTime value={e.created} /> — score {formatNumber(e.previous_risk_score)} →{' '}
                    {formatNumber(e.intrinsic_risk_score)} <SeverityBadge severity={e.intrinsic_risk_severity} />
                    {e.bom_version !== null ? ` · AI-BOM v${e.bom_version}` : ''} · {e.findings_added.length} findings
                    added, {e.findings_removed.length} removed
                  </li>
                ))}
              </ol>
              <Pager page={page} state={pageState(cursor, page)} idOf={(e) => e.id} onCursor={setCursor} />
            </>
          )
        }
      </Async>
      <h3>AI-BOM changes (previous → current)</h3>
      <Async state={diff}>
        {(d) =>
          d === null ? (
            <Empty>Only one AI-BOM version so far.</Empty>
          ) : (
            <p>
              v{d.from_version} → v{d.to_version}: {d.components.added.length} components added,{' '}
              {d.components.removed.length} removed, {d.components.changed.length} changed.
            </p>
          )
        }
      </Async>
    </section>
  );
}
