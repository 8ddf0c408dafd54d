import { recordEventsWithDeliveries } from '@risk/common/events';
import { ZWebhookEndpoint, type EventObject } from '@risk/contracts';
import { markEndpointFailing, type Prisma } from '@risk/db';
import type { WebhookDeliveryDeps } from './webhook-delivery';
import type { SentAttempt } from './webhook-send';

/** Delay before attempt n+1 after attempt n failed; 8 attempts spanning ≥ 24 h 35 min. */
export const RETRY_DELAYS_MS = [
  5_000, // 5 s
  5 * 60_000, // 5 min
  30 * 60_000, // 30 min
  2 * 3600_000, // 2 h
  5 * 3600_000, // 5 h
  8 * 3600_000, // 8 h
  9 * 3600_000, // 9 h
] as const;
/** An endpoint failing for this long without a single success is disabled. */
export const DISABLE_AFTER_MS = 24 * 3600_000;

export function retryDelayMs(attempt: number, scale: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * scale * (1 + 0.1 * random()));
}

export interface FailedAttempt {
  deliveryId: string;
  endpointId: string;
  attempt: number;
  /** the webhook_delivery_attempts row to store */
  attemptRow: Prisma.WebhookDeliveryAttemptUncheckedCreateInput;
  sent: Pick<SentAttempt, 'sentAt' | 'status'>;
  now: Date;
  /** the originating request's id, carried into the retry's job (docs/observability.md) */
  requestId?: string;
}

/**
 * Stores a failed attempt and decides what follows, in one transaction (docs/webhooks.md "Retries", "Disabling"):
 * the next attempt through an outbox row available at its time, or the delivery failed for good — and,
 * after 24 h of failures or a 410 Gone, the endpoint disabled with `webhook_endpoint.disabled` recorded.
 */
export async function recordFailure(
  deps: Pick<WebhookDeliveryDeps, 'prisma' | 'config' | 'random'>,
  input: FailedAttempt,
) {
  const { prisma } = deps;
  const { deliveryId, endpointId, attempt, attemptRow, now, requestId } = input;
  const { sentAt, status } = input.sent;
  const scale = deps.config.WEBHOOK_RETRY_SCALE;
  const delay = retryDelayMs(attempt, scale, deps.random);
  return prisma.$transaction(async (tx) => {
    await tx.webhookDeliveryAttempt.create({ data: attemptRow });
    // the endpoint's failure window starts at its first failure since the last success
    const endpoint = await markEndpointFailing(tx, { id: endpointId, sentAt });
    const failingFor = endpoint ? now.getTime() - endpoint.failing_since.getTime() : 0;
    const gone = status === 410;
    const disable = endpoint?.status === 'enabled' && (gone || failingFor >= DISABLE_AFTER_MS * scale);
    if (disable || delay === null) {
      await tx.webhookDelivery.update({
        where: { id: deliveryId },
        data: { status: 'failed', last_response_status: status, next_attempt_at: null },
      });
      let deliveries: Awaited<ReturnType<typeof recordEventsWithDeliveries>>['deliveries'] = [];
      if (disable) {
        const reason = gone
          ? 'the endpoint answered 410 Gone'
          : `every delivery failed for ${Math.round(failingFor / 3600_000 / scale)} h (24 h limit)`;
        const updated = await tx.webhookEndpoint.update({
          where: { id: endpointId },
          data: { status: 'disabled', disabled_reason: reason },
        });
        // the disabled endpoint is excluded from this fan-out (only enabled endpoints receive)
        ({ deliveries } = await recordEventsWithDeliveries(tx, [
          {
            type: 'webhook_endpoint.disabled',
            livemode: updated.livemode,
            org_id: updated.org_id,
            object: renderEndpointForEvent(updated),
            extra: { previous_attributes: { status: 'enabled', disabled_reason: null } },
          },
        ]));
      }
      return { kind: 'failed' as const, disabled: disable, deliveries };
    }
    const nextAt = new Date(now.getTime() + delay);
    await tx.webhookDelivery.update({
      where: { id: deliveryId },
      data: { status: 'retrying', last_response_status: status, next_attempt_at: nextAt },
    });
    const outbox = await tx.outboxMessage.create({
      data: {
        kind: 'webhook_delivery',
        payload: { delivery_id: deliveryId, attempt: attempt + 1, ...(requestId ? { request_id: requestId } : {}) },
        available_at: nextAt,
      },
      select: { id: true },
    });
    return { kind: 'retry' as const, nextAt, outboxId: outbox.id };
  });
}

function renderEndpointForEvent(row: {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  metadata: unknown;
  status: string;
  disabled_reason: string | null;
  livemode: boolean;
  created: Date;
  updated: Date;
}): EventObject<'webhook_endpoint.disabled'> {
  // the text and JSON columns narrowed to the event's schema (docs/webhooks.md "Event catalogue")
  const shape = ZWebhookEndpoint.shape;
  return {
    object: 'webhook_endpoint',
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    metadata: shape.metadata.parse(row.metadata ?? null),
    status: shape.status.parse(row.status),
    disabled_reason: row.disabled_reason,
    livemode: row.livemode,
    created: Math.floor(row.created.getTime() / 1000),
    updated: Math.floor(row.updated.getTime() / 1000),
  };
}
