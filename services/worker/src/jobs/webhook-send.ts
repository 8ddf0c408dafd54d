import { requireSecret, type Config } from '@risk/common/config';
import { decryptSecret } from '@risk/common/crypto';
import { guardedRequest, OutboundRequestError, type OutboundGuard } from '@risk/common/outbound';
import { Webhook } from 'standardwebhooks';
import type { WebhookDeliveryDeps } from './webhook-delivery';

/** Stored prefix of a receiver's response body. */
export const RESPONSE_BODY_LIMIT = 1024;
export const USER_AGENT = 'RiskIntelligence-Webhooks/1.0';

/** The event and endpoint fields one attempt sends. */
export interface SignedEvent {
  event_id: string;
  url: string;
  secret_ciphertext: string;
  type: string;
  livemode: boolean;
  data: unknown;
  created: Date;
}

/**
 * What one signed POST came back with; `status` null when no response arrived (then `error` says why).
 * `responseBody` null also when the target is an allow-listed internal address.
 */
export interface SentAttempt {
  sentAt: Date;
  status: number | null;
  responseBody: string | null;
  error: string | null;
  latencyMs: number;
}

/**
 * Signs the event per Standard Webhooks and POSTs it through the outbound guard (docs/webhooks.md
 * "Headers and signature"): webhook-id = event id, webhook-timestamp = this attempt, no redirects followed.
 */
export async function sendSigned(
  deps: Pick<WebhookDeliveryDeps, 'config'> & { guard: OutboundGuard },
  delivery: SignedEvent,
): Promise<SentAttempt> {
  const body = JSON.stringify({
    id: delivery.event_id,
    object: 'event',
    type: delivery.type,
    created: Math.floor(delivery.created.getTime() / 1000),
    livemode: delivery.livemode,
    data: delivery.data,
  });
  const sentAt = new Date();
  const secret = decryptSecret(delivery.secret_ciphertext, requireSecret(deps.config as Config, 'SECRETS_KEY'));
  const headers = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': delivery.event_id,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(delivery.event_id, sentAt, body),
  };

  const started = performance.now();
  let status: number | null = null;
  let responseBody: string | null = null;
  let error: string | null = null;
  try {
    const res = await guardedRequest(deps.guard, {
      purpose: 'webhook',
      url: delivery.url,
      method: 'POST',
      headers,
      body,
      timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
      maxBodyBytes: RESPONSE_BODY_LIMIT,
    });
    status = res.status;
    // a target reached only through OUTBOUND_ALLOWED_HOSTS_WEBHOOK (loopback, a private network) is inside the
    // platform's network: its reply is never stored, so GET /v1/webhooks/{id}/deliveries cannot read an internal
    // service for the tenant (docs/security.md "Outbound allow-lists per purpose"); the status still is
    responseBody = res.exempted ? null : res.body;
    if (status >= 300 && status < 400) error = 'redirects are not followed';
  } catch (err) {
    error = err instanceof OutboundRequestError ? `${err.reason}: ${err.message}` : `error: ${(err as Error).message}`;
  }
  const latencyMs = Math.max(0, Math.round(performance.now() - started));
  return { sentAt, status, responseBody, error, latencyMs };
}
