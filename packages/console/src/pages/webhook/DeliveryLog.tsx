// The endpoint's event log: deliveries newest first with every attempt (status, response code, latency, error,
// first 1 KiB of the response as text), filtered by delivery status; filter and cursor live in the address.
import { publicApi, unwrap } from '../../api/client';
import type { WebhookDelivery } from '../../api/types';
import { usePagedList } from '../../app/use-paged';
import { PagedTable } from '../../components/data-table';
import { RelativeTime } from '../../components/time';
import { formatNumber } from '../../lib/format';

const STATUSES: Array<WebhookDelivery['status']> = ['pending', 'retrying', 'delivered', 'failed'];

function statusFilter(search: URLSearchParams): WebhookDelivery['status'] | undefined {
  const v = search.get('status');
  return STATUSES.find((s) => s === v);
}

export function DeliveryLog({ webhookId }: { webhookId: string }) {
  const list = usePagedList<WebhookDelivery>((cursor, search) => {
    const status = statusFilter(search);
    const query = { limit: 20, ...cursor, ...(status ? { status } : {}) };
    return unwrap(
      publicApi.GET('/v1/webhooks/{webhook_id}/deliveries', { params: { path: { webhook_id: webhookId }, query } }),
    );
  });
  return (
    <section aria-labelledby="wh-log-h">
      <h2 id="wh-log-h">Event log</h2>
      <div className="filters">
        <div>
          <label htmlFor="delivery-status">Delivery status</label>
          <select
            id="delivery-status"
            value={statusFilter(list.filters) ?? ''}
            onChange={(e) => list.setFilter('status', e.target.value || null)}
          >
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
        <button type="button" onClick={list.state.reload}>
          Refresh
        </button>
      </div>
      <PagedTable
        list={list}
        empty={<>No deliveries{statusFilter(list.filters) ? ' with this status' : ' yet'}.</>}
        columns={['Event', 'Status', { label: 'Attempts', num: true }, 'Created', 'Attempt log']}
        row={(d) => (
          <>
            <td>
              {d.event_type}
              <div className="muted">
                <code>{d.event_id}</code>
              </div>
            </td>
            <td>
              {d.status}
              {d.next_attempt_at ? (
                <div className="muted">
                  next attempt <RelativeTime value={d.next_attempt_at} />
                </div>
              ) : null}
            </td>
            <td className="num">{formatNumber(d.attempt_count)}</td>
            <td>
              <RelativeTime value={d.created} />
            </td>
            <td>
              {d.attempts.length === 0 ? (
                <span className="muted">not attempted yet</span>
              ) : (
                <ol className="attempts">
                  {d.attempts.map((a) => (
                    <li key={a.id}>
                      {a.status}
                      {a.response_status !== null ? `, HTTP ${a.response_status}` : ''}, {formatNumber(a.latency_ms)}{' '}
                      ms, <RelativeTime value={a.created} />
                      {a.error ? <div className="muted">{a.error}</div> : null}
                      {a.response_body ? (
                        <details>
                          <summary>Response body</summary>
                          <pre className="json">{a.response_body}</pre>
                        </details>
                      ) : null}
                    </li>
                  ))}
                </ol>
              )}
            </td>
          </>
        )}
      />
    </section>
  );
}
