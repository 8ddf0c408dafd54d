import type { WebhookDelivery, WebhookEndpoint } from '@risk/contracts';
import type {
  WebhookDelivery as DeliveryRow,
  WebhookDeliveryAttempt as AttemptRow,
  WebhookEndpoint as EndpointRow,
} from '@risk/db';

const unix = (d: Date): number => Math.floor(d.getTime() / 1000);
const unixOrNull = (d: Date | null): number | null => (d ? unix(d) : null);

/** The API shape of an endpoint. The secret is added only by create and rotate_secret. */
export function renderEndpoint(row: EndpointRow, secret?: string): WebhookEndpoint {
  return {
    object: 'webhook_endpoint',
    id: row.id,
    url: row.url,
    events: row.events ?? [],
    description: row.description,
    metadata: (row.metadata ?? null) as WebhookEndpoint['metadata'],
    status: row.status as WebhookEndpoint['status'],
    disabled_reason: row.disabled_reason,
    livemode: row.livemode,
    created: unix(row.created),
    updated: unix(row.updated),
    ...(secret !== undefined ? { secret } : {}),
  };
}

export function renderDelivery(row: DeliveryRow & { attempts: AttemptRow[] }): WebhookDelivery {
  return {
    object: 'webhook_delivery',
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status as WebhookDelivery['status'],
    attempt_count: row.attempt_count,
    last_response_status: row.last_response_status,
    next_attempt_at: unixOrNull(row.next_attempt_at),
    delivered_at: unixOrNull(row.delivered_at),
    created: unix(row.created),
    attempts: row.attempts.map((a) => ({
      object: 'webhook_delivery_attempt' as const,
      id: a.id,
      attempt: a.attempt,
      status: a.status as 'succeeded' | 'failed',
      response_status: a.response_status,
      response_body: a.response_body,
      error: a.error,
      latency_ms: a.latency_ms,
      created: unix(a.created),
    })),
  };
}
