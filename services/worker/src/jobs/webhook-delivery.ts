import { type Config } from '@risk/common/config';
import { enqueueDeliveries } from '@risk/common/events';
import { type Logger } from '@risk/common/observability';
import { allowedHostsFor, OutboundGuard } from '@risk/common/outbound';
import { JOBS, type QueueProducer, type WebhookDeliveryJob } from '@risk/common/queue';
import {
  claimDeliveryAttempt,
  ID_PREFIXES,
  newId,
  releaseDeliveryAttempt,
  type ClaimedDelivery,
  type Prisma,
  type PrismaClient,
} from '@risk/db';
import { recordFailure } from './webhook-failure';
import { RESPONSE_BODY_LIMIT, sendSigned } from './webhook-send';

/**
 * Webhook delivery (docs/webhooks.md). One job per attempt of one (event, endpoint) delivery row:
 *
 * 1. claim the attempt atomically (attempt_count n-1 → n), so a duplicate job never sends twice;
 * 2. POST the event as JSON, signed per Standard Webhooks (webhook-id = event id, the same on every
 *    retry; webhook-timestamp = this attempt; webhook-signature `v1,<base64 HMAC-SHA256>`), through the
 *    outbound guard (checked again here, on the address actually connected), no redirects, with
 *    WEBHOOK_TIMEOUT_MS;
 * 3. store the attempt; 2xx = delivered. Otherwise schedule attempt n+1 after RETRY_DELAYS_MS[n-1]
 *    (+0–10 % jitter, times WEBHOOK_RETRY_SCALE) through an outbox row available at that time plus a
 *    delayed job; after 24 h of consecutive failures of the endpoint (or a 410 Gone) the endpoint is
 *    disabled and `webhook_endpoint.disabled` is recorded for its org.
 */

export { RETRY_DELAYS_MS, retryDelayMs } from './webhook-failure';

export interface WebhookDeliveryDeps {
  prisma: PrismaClient;
  config: Pick<
    Config,
    | 'WEBHOOK_TIMEOUT_MS'
    | 'WEBHOOK_RETRY_SCALE'
    | 'OUTBOUND_ALLOWED_HOSTS'
    | 'OUTBOUND_ALLOWED_HOSTS_FIREWALL'
    | 'OUTBOUND_ALLOWED_HOSTS_WEBHOOK'
    | 'SECRETS_KEY'
  >;
  producer: Pick<QueueProducer, 'enqueueWebhookDelivery'> | null;
  logger?: Logger;
  guard?: OutboundGuard;
  /** injectable for tests: jitter in [0, 1) */
  random?: () => number;
}

export type DeliveryOutcome =
  | { outcome: 'skipped'; reason: string }
  | { outcome: 'delivered'; attempt: number; status: number }
  | { outcome: 'retry_scheduled'; attempt: number; next_attempt_at: Date }
  | { outcome: 'failed'; attempt: number; endpoint_disabled: boolean };

/** BullMQ processor: `worker.process(job)` for queue JOBS.webhookDelivery.queue. */
export function createWebhookDeliveryProcessor(
  deps: WebhookDeliveryDeps,
): (job: { data: unknown }) => Promise<DeliveryOutcome> {
  const guard = deps.guard ?? new OutboundGuard(allowedHostsFor(deps.config, 'webhook'));
  const full = { ...deps, guard };
  return (job) => deliverWebhook(full, JOBS.webhookDelivery.payload.parse(job.data));
}

export async function deliverWebhook(
  deps: WebhookDeliveryDeps & { guard: OutboundGuard },
  job: WebhookDeliveryJob,
): Promise<DeliveryOutcome> {
  const { prisma } = deps;
  const attempt = job.attempt ?? 1;
  const leaseMs = deps.config.WEBHOOK_TIMEOUT_MS + 60_000;

  // Claim attempt n: only from attempt_count n-1, or n again when a crashed run left no attempt row
  // and its lease ran out. Endpoint must still be enabled.
  const delivery = await claimDeliveryAttempt(prisma, { deliveryId: job.delivery_id, attempt, leaseMs });
  if (!delivery) return skip(deps, job);
  try {
    return await attemptClaimed(deps, { deliveryId: job.delivery_id, attempt, delivery, requestId: job.request_id });
  } catch (err) {
    // an unexpected failure (database, decryption) before the attempt was stored: release the claim so
    // BullMQ's retry of this job performs the attempt instead of finding it taken
    await releaseDeliveryAttempt(prisma, { deliveryId: job.delivery_id, attempt }).catch(() => undefined);
    throw err;
  }
}

/** Sends claimed attempt `attempt` of the delivery and records its outcome. */
async function attemptClaimed(
  deps: WebhookDeliveryDeps & { guard: OutboundGuard },
  claim: { deliveryId: string; attempt: number; delivery: ClaimedDelivery; requestId?: string },
): Promise<DeliveryOutcome> {
  const { prisma } = deps;
  const { deliveryId, attempt, delivery, requestId } = claim;

  const sent = await sendSigned(deps, delivery);
  const { status, responseBody, error, latencyMs } = sent;
  const succeeded = status !== null && status >= 200 && status < 300;

  const now = new Date();
  const attemptRow = {
    id: newId(ID_PREFIXES.deliveryAttempt),
    delivery_id: deliveryId,
    attempt,
    status: succeeded ? 'succeeded' : 'failed',
    response_status: status,
    response_body: responseBody === null ? null : responseBody.slice(0, RESPONSE_BODY_LIMIT),
    error: error?.slice(0, 1000) ?? null,
    latency_ms: latencyMs,
  };

  if (succeeded) {
    await markDelivered(prisma, { attemptRow, endpointId: delivery.endpoint_id, status, now });
    deps.logger?.info('webhook delivered', {
      delivery_id: deliveryId,
      event_id: delivery.event_id,
      attempt,
      status,
      latency_ms: latencyMs,
    });
    return { outcome: 'delivered', attempt, status: status! };
  }

  const result = await recordFailure(deps, {
    deliveryId,
    attempt,
    endpointId: delivery.endpoint_id,
    attemptRow,
    sent,
    now,
    requestId,
  });

  deps.logger?.warn('webhook delivery attempt failed', {
    delivery_id: deliveryId,
    event_id: delivery.event_id,
    attempt,
    status,
    error,
    latency_ms: latencyMs,
  });

  if (result.kind === 'failed') {
    await enqueueDeliveries({ prisma, producer: deps.producer }, result.deliveries);
    return { outcome: 'failed', attempt, endpoint_disabled: result.disabled };
  }
  await enqueueRetry(deps, {
    deliveryId,
    attempt: attempt + 1,
    requestId,
    nextAt: result.nextAt,
    outboxId: result.outboxId,
  });
  return { outcome: 'retry_scheduled', attempt, next_attempt_at: result.nextAt };
}

/** Stores a 2xx attempt: the delivery delivered and its endpoint, if it was failing, no longer so (one transaction). */
async function markDelivered(
  prisma: PrismaClient,
  done: {
    attemptRow: Prisma.WebhookDeliveryAttemptUncheckedCreateInput;
    endpointId: string;
    status: number | null;
    now: Date;
  },
): Promise<void> {
  await prisma.$transaction([
    prisma.webhookDeliveryAttempt.create({ data: done.attemptRow }),
    prisma.webhookDelivery.update({
      where: { id: done.attemptRow.delivery_id },
      data: { status: 'delivered', delivered_at: done.now, last_response_status: done.status, next_attempt_at: null },
    }),
    prisma.webhookEndpoint.updateMany({
      where: { id: done.endpointId, failing_since: { not: null } },
      data: { failing_since: null },
    }),
  ]);
}

/**
 * The fast path of a retry: a delayed job now, and its outbox row marked processed; if Redis is away the outbox row
 * (available at nextAt) covers it, so a failure here is only logged.
 */
async function enqueueRetry(
  deps: Pick<WebhookDeliveryDeps, 'prisma' | 'producer' | 'logger'>,
  retry: { deliveryId: string; attempt: number; requestId?: string; nextAt: Date; outboxId: bigint },
): Promise<void> {
  if (!deps.producer) return;
  try {
    await deps.producer.enqueueWebhookDelivery({
      delivery_id: retry.deliveryId,
      attempt: retry.attempt,
      request_id: retry.requestId,
      delayMs: retry.nextAt.getTime() - Date.now(),
    });
    await deps.prisma.outboxMessage.update({ where: { id: retry.outboxId }, data: { processed_at: new Date() } });
  } catch (err) {
    deps.logger?.warn('could not enqueue webhook retry; the outbox relay will', { err, delivery_id: retry.deliveryId });
  }
}

/** Why a job had nothing to do; a delivery whose endpoint is disabled is closed as failed. */
async function skip(deps: WebhookDeliveryDeps, job: WebhookDeliveryJob): Promise<DeliveryOutcome> {
  const row = await deps.prisma.webhookDelivery.findUnique({
    where: { id: job.delivery_id },
    select: { status: true, attempt_count: true, endpoint: { select: { status: true } } },
  });
  if (!row) return { outcome: 'skipped', reason: 'delivery no longer exists (endpoint deleted)' };
  if (row.endpoint.status !== 'enabled' && (row.status === 'pending' || row.status === 'retrying')) {
    await deps.prisma.webhookDelivery.updateMany({
      where: { id: job.delivery_id, status: { in: ['pending', 'retrying'] } },
      data: { status: 'failed', next_attempt_at: null },
    });
    return { outcome: 'skipped', reason: 'endpoint is disabled' };
  }
  return {
    outcome: 'skipped',
    reason: `attempt ${job.attempt ?? 1} already done or not due (status ${row.status}, attempts ${row.attempt_count})`,
  };
}
