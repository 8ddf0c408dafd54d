// Webhook deliveries and endpoints (docs/webhooks.md "Retries", "Disabling"): the statements Prisma's CRUD cannot
// say in one round trip — the delivery claim with its lease, its release, and the endpoint's failure window.
import type { PrismaClient } from '../generated/prisma/client';

type Raw = Pick<PrismaClient, '$queryRaw' | '$executeRaw'>;

/** A claimed delivery attempt, with its endpoint and event. */
export interface ClaimedDelivery {
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

/**
 * Claims attempt `attempt` of a delivery: only from attempt_count attempt-1, or `attempt` again when a crashed run
 * left no attempt row and its lease ran out. The endpoint must still be enabled. Undefined: nothing to claim.
 */
export async function claimDeliveryAttempt(
  prisma: Raw,
  claim: { deliveryId: string; attempt: number; leaseMs: number },
): Promise<ClaimedDelivery | undefined> {
  const { deliveryId, attempt, leaseMs } = claim;
  const claimed = await prisma.$queryRaw<ClaimedDelivery[]>`
    UPDATE webhook_deliveries d
       SET attempt_count = ${attempt}, next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000}), updated = now()
      FROM webhook_endpoints we, events e
     WHERE d.id = ${deliveryId}
       AND we.id = d.endpoint_id AND e.id = d.event_id AND e.created = d.event_created
       AND we.status = 'enabled'
       AND d.status IN ('pending', 'retrying')
       AND (d.attempt_count = ${attempt - 1}
            OR (d.attempt_count = ${attempt} AND d.next_attempt_at < now()
                AND NOT EXISTS (SELECT 1 FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id AND a.attempt = ${attempt})))
    RETURNING d.attempt_count AS attempt, d.event_id, d.endpoint_id, we.url, we.secret_ciphertext, we.org_id,
              we.livemode AS endpoint_livemode, e.type, e.livemode, e.data, e.created`;
  return claimed[0];
}

/** Gives a claimed attempt back (no attempt row was stored), so a retry of the job performs it. */
export async function releaseDeliveryAttempt(
  prisma: Raw,
  claim: { deliveryId: string; attempt: number },
): Promise<void> {
  const { deliveryId, attempt } = claim;
  await prisma.$executeRaw`
    UPDATE webhook_deliveries SET attempt_count = ${attempt - 1}, next_attempt_at = NULL, updated = now()
     WHERE id = ${deliveryId} AND attempt_count = ${attempt}
       AND NOT EXISTS (SELECT 1 FROM webhook_delivery_attempts a WHERE a.delivery_id = ${deliveryId} AND a.attempt = ${attempt})`;
}

/**
 * Starts the endpoint's failure window at its first failure since the last success (kept when already started);
 * returns the window's start and the endpoint's status, undefined when the endpoint is gone.
 */
export async function markEndpointFailing(
  tx: Pick<PrismaClient, '$queryRaw'>,
  endpoint: { id: string; sentAt: Date },
): Promise<{ failing_since: Date; status: string } | undefined> {
  const [row] = await tx.$queryRaw<Array<{ failing_since: Date; status: string }>>`
    UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ${endpoint.sentAt}::timestamptz), updated = now()
     WHERE id = ${endpoint.id}
    RETURNING failing_since, status`;
  return row;
}

/** One endpoint creator per org and mode at a time (held for the caller's transaction), so a cap cannot overshoot. */
export async function lockWebhookEndpointCreation(
  tx: Pick<PrismaClient, '$executeRaw'>,
  owner: { orgId: string; livemode: boolean },
): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`webhook-endpoints:${owner.orgId}:${owner.livemode}`}))`;
}
