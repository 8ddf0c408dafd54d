// Verifying webhook deliveries. The worker signs each delivery per Standard Webhooks (docs/webhooks.md,
// services/worker/src/jobs/webhook-delivery.ts): webhook-id, webhook-timestamp and
// webhook-signature `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{raw body}">` keyed by the `whsec_…` secret.
import { Webhook } from 'standardwebhooks';
import { RiskError } from './errors';
import type { webhooks } from './generated/public-api';

/** The event types a webhook endpoint can receive (the `webhooks` section of the public OpenAPI document). */
export type WebhookEventType = keyof webhooks;

/** The payload of a delivery of one event type: `{id: evt_…, object: "event", type, created, livemode, data}`. */
export type WebhookEventOf<T extends WebhookEventType> = NonNullable<
  webhooks[T]['post']['requestBody']
>['content']['application/json'];

/**
 * The payload of any delivery, discriminated by `type`: `switch (event.type)` narrows `event.data` to that type's
 * payload (docs/webhooks.md "Event catalogue").
 */
export type WebhookEvent = { [T in WebhookEventType]: WebhookEventOf<T> }[WebhookEventType];

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** The signature, the timestamp (more than 5 minutes off) or the payload did not check out. */
export class WebhookVerificationError extends RiskError {
  override name = 'WebhookVerificationError';
}

/**
 * Checks a delivery's signature and timestamp and returns the parsed event. Pass the raw body exactly as
 * received (a Buffer or string, e.g. from `express.raw()`): re-serialised JSON does not verify.
 */
export function verifyWebhook(payload: string | Buffer, headers: WebhookHeaders, secret: string): WebhookEvent {
  const wanted = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
  const flat: Record<string, string> = {};
  for (const name of wanted) {
    const value = headers instanceof Headers ? headers.get(name) : headerValue(headers, name);
    if (value === null || value === undefined) throw new WebhookVerificationError(`missing ${name} header`);
    flat[name] = value;
  }
  try {
    return new Webhook(secret).verify(payload, flat) as WebhookEvent;
  } catch (err) {
    throw new WebhookVerificationError(err instanceof Error ? err.message : String(err), { cause: err });
  }
}

/** Node lower-cases incoming header names; other frameworks may not, so match case-insensitively. */
function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(', ') : value;
  }
  return undefined;
}
