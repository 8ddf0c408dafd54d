import {
  decryptSecret,
  guardedRequest,
  ID_PREFIXES,
  JOBS,
  newId,
  OutboundGuard,
  OutboundRequestError,
  recordEventsWithDeliveries,
  requireSecret,
  enqueueDeliveries,
  type Config,
  type Logger,
  type QueueProducer,
  type WebhookDeliveryJob,
} from '@risk/common';
import type { PrismaClient } from '@risk/db';
import { Webhook } from 'standardwebhooks';

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
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** An endpoint failing for this long without a single success is disabled. */
export const DISABLE_AFTER_MS = 24 * 3600_000;
/** Stored prefix of a receiver's response body. */
export const RESPONSE_BODY_LIMIT = 1024;
export const USER_AGENT = 'RiskIntelligence-Webhooks/1.0';

export interface WebhookDeliveryDeps {
  db: PrismaClient;
  config: Pick<Config, 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_RETRY_SCALE' | 'OUTBOUND_ALLOWED_HOSTS' | 'SECRETS_KEY'>;
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

export function retryDelayMs(attempt: number, scale: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * scale * (1 + 0.1 * random()));
}

interface ClaimedDelivery {
  attempt: number;
  event_id: string;
  endpoint_id: string;
  url: string;
  secret_ciphertext: string;
  org_id: string;
  endpoint_livemode: boolean;
  type: string;
  livemode: boolean;
  data: unknown;
  created: Date;
}

/** BullMQ processor: `worker.process(job)` for queue JOBS.webhookDelivery.queue. */
export function createWebhookDeliveryProcessor(
  deps: WebhookDeliveryDeps,
): (job: { data: unknown }) => Promise<DeliveryOutcome> {
  const guard = deps.guard ?? new OutboundGuard(deps.config.OUTBOUND_ALLOWED_HOSTS);
  const full = { ...deps, guard };
  return (job) => deliverWebhook(full, JOBS.webhookDelivery.payload.parse(job.data));
}

export async function deliverWebhook(
  deps: WebhookDeliveryDeps & { guard: OutboundGuard },
  job: WebhookDeliveryJob,
): Promise<DeliveryOutcome> {
  const { db } = deps;
  const attempt = job.attempt ?? 1;
  const leaseMs = deps.config.WEBHOOK_TIMEOUT_MS + 60_000;

  // Claim attempt n: only from attempt_count n-1, or n again when a crashed run left no attempt row
  // and its lease ran out. Endpoint must still be enabled.
  const claimed = await db.$queryRaw<ClaimedDelivery[]>`
    UPDATE webhook_deliveries d
       SET attempt_count = ${attempt}, next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000}), updated = now()
      FROM webhook_endpoints we, events e
     WHERE d.id = ${job.delivery_id}
       AND we.id = d.endpoint_id AND e.id = d.event_id
       AND we.status = 'enabled'
       AND d.status IN ('pending', 'retrying')
       AND (d.attempt_count = ${attempt - 1}
            OR (d.attempt_count = ${attempt} AND d.next_attempt_at < now()
                AND NOT EXISTS (SELECT 1 FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id AND a.attempt = ${attempt})))
    RETURNING d.attempt_count AS attempt, d.event_id, d.endpoint_id, we.url, we.secret_ciphertext, we.org_id,
              we.livemode AS endpoint_livemode, e.type, e.livemode, e.data, e.created`;
  const delivery = claimed[0];
  if (!delivery) return skip(deps, job);
  try {
    return await attemptClaimed(deps, job, attempt, delivery);
  } catch (err) {
    // an unexpected failure (database, decryption) before the attempt was stored: release the claim so
    // BullMQ's retry of this job performs the attempt instead of finding it taken
    await db.$executeRaw`
      UPDATE webhook_deliveries SET attempt_count = ${attempt - 1}, next_attempt_at = NULL, updated = now()
       WHERE id = ${job.delivery_id} AND attempt_count = ${attempt}
         AND NOT EXISTS (SELECT 1 FROM webhook_delivery_attempts a WHERE a.delivery_id = ${job.delivery_id} AND a.attempt = ${attempt})`.catch(
      () => undefined,
    );
    throw err;
  }
}

async function attemptClaimed(
  deps: WebhookDeliveryDeps & { guard: OutboundGuard },
  job: WebhookDeliveryJob,
  attempt: number,
  delivery: ClaimedDelivery,
): Promise<DeliveryOutcome> {
  const { db } = deps;

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
    const res = await guardedRequest(deps.guard, 'webhook', delivery.url, {
      method: 'POST',
      headers,
      body,
      timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
      maxBodyBytes: RESPONSE_BODY_LIMIT,
    });
    status = res.status;
    responseBody = res.body;
    if (status >= 300 && status < 400) error = 'redirects are not followed';
  } catch (err) {
    error = err instanceof OutboundRequestError ? `${err.reason}: ${err.message}` : `error: ${(err as Error).message}`;
  }
  const latencyMs = Math.max(0, Math.round(performance.now() - started));
  const succeeded = status !== null && status >= 200 && status < 300;

  const now = new Date();
  const attemptRow = {
    id: newId(ID_PREFIXES.deliveryAttempt),
    delivery_id: job.delivery_id,
    attempt,
    status: succeeded ? 'succeeded' : 'failed',
    response_status: status,
    response_body: responseBody === null ? null : responseBody.slice(0, RESPONSE_BODY_LIMIT),
    error: error?.slice(0, 1000) ?? null,
    latency_ms: latencyMs,
  };

  if (succeeded) {
    await db.$transaction([
      db.webhookDeliveryAttempt.create({ data: attemptRow }),
      db.webhookDelivery.update({
        where: { id: job.delivery_id },
        data: { status: 'delivered', delivered_at: now, last_response_status: status, next_attempt_at: null },
      }),
      db.webhookEndpoint.updateMany({
        where: { id: delivery.endpoint_id, failing_since: { not: null } },
        data: { failing_since: null },
      }),
    ]);
    deps.logger?.info('webhook delivered', {
      delivery_id: job.delivery_id,
      event_id: delivery.event_id,
      attempt,
      status,
      latency_ms: latencyMs,
    });
    return { outcome: 'delivered', attempt, status: status! };
  }

  const scale = deps.config.WEBHOOK_RETRY_SCALE;
  const delay = retryDelayMs(attempt, scale, deps.random);
  const result = await db.$transaction(async (tx) => {
    await tx.webhookDeliveryAttempt.create({ data: attemptRow });
    // the endpoint's failure window starts at its first failure since the last success
    const [endpoint] = await tx.$queryRaw<Array<{ failing_since: Date; status: string }>>`
      UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ${sentAt}::timestamptz), updated = now()
       WHERE id = ${delivery.endpoint_id}
      RETURNING failing_since, status`;
    const failingFor = endpoint ? now.getTime() - endpoint.failing_since.getTime() : 0;
    const gone = status === 410;
    const disable = endpoint?.status === 'enabled' && (gone || failingFor >= DISABLE_AFTER_MS * scale);
    if (disable || delay === null) {
      await tx.webhookDelivery.update({
        where: { id: job.delivery_id },
        data: { status: 'failed', last_response_status: status, next_attempt_at: null },
      });
      let deliveries: Awaited<ReturnType<typeof recordEventsWithDeliveries>>['deliveries'] = [];
      if (disable) {
        const reason = gone
          ? 'the endpoint answered 410 Gone'
          : `every delivery failed for ${Math.round(failingFor / 3600_000 / scale)} h (24 h limit)`;
        const updated = await tx.webhookEndpoint.update({
          where: { id: delivery.endpoint_id },
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
      where: { id: job.delivery_id },
      data: { status: 'retrying', last_response_status: status, next_attempt_at: nextAt },
    });
    const outbox = await tx.outboxMessage.create({
      data: {
        kind: 'webhook_delivery',
        payload: { delivery_id: job.delivery_id, attempt: attempt + 1 },
        available_at: nextAt,
      },
      select: { id: true },
    });
    return { kind: 'retry' as const, nextAt, outboxId: outbox.id };
  });

  deps.logger?.warn('webhook delivery attempt failed', {
    delivery_id: job.delivery_id,
    event_id: delivery.event_id,
    attempt,
    status,
    error,
    latency_ms: latencyMs,
  });

  if (result.kind === 'failed') {
    await enqueueDeliveries(db, deps.producer, result.deliveries);
    return { outcome: 'failed', attempt, endpoint_disabled: result.disabled };
  }
  // fast path: a delayed job now; if Redis is away the outbox row (available at nextAt) covers it
  if (deps.producer) {
    try {
      await deps.producer.enqueueWebhookDelivery({
        delivery_id: job.delivery_id,
        attempt: attempt + 1,
        delayMs: result.nextAt.getTime() - Date.now(),
      });
      await db.outboxMessage.update({ where: { id: result.outboxId }, data: { processed_at: new Date() } });
    } catch (err) {
      deps.logger?.warn('could not enqueue webhook retry; the outbox relay will', {
        err,
        delivery_id: job.delivery_id,
      });
    }
  }
  return { outcome: 'retry_scheduled', attempt, next_attempt_at: result.nextAt };
}

/** Why a job had nothing to do; a delivery whose endpoint is disabled is closed as failed. */
async function skip(deps: WebhookDeliveryDeps, job: WebhookDeliveryJob): Promise<DeliveryOutcome> {
  const row = await deps.db.webhookDelivery.findUnique({
    where: { id: job.delivery_id },
    select: { status: true, attempt_count: true, endpoint: { select: { status: true } } },
  });
  if (!row) return { outcome: 'skipped', reason: 'delivery no longer exists (endpoint deleted)' };
  if (row.endpoint.status !== 'enabled' && (row.status === 'pending' || row.status === 'retrying')) {
    await deps.db.webhookDelivery.updateMany({
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
}) {
  return {
    object: 'webhook_endpoint',
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    metadata: row.metadata ?? null,
    status: row.status,
    disabled_reason: row.disabled_reason,
    livemode: row.livemode,
    created: Math.floor(row.created.getTime() / 1000),
    updated: Math.floor(row.updated.getTime() / 1000),
  };
}
