import type { Prisma } from '@risk/db';
import { currentRequestId, type EnrichmentJob, type FirewallSyncJob, type WebhookDeliveryJob } from './queue';
import { currentTraceCarrier } from './telemetry/tracing';

/**
 * Transactional outbox. A change that must cause background work writes an outbox row in its own
 * transaction; after commit the API tries to enqueue at once (fast path) and the worker's relay
 * enqueues whatever is still unprocessed (SELECT … FOR UPDATE SKIP LOCKED), so a 202 is never lost
 * to a Redis outage. Consumers are idempotent, so at-least-once delivery is fine.
 */
export type OutboxMessage =
  | { kind: 'enrichment'; payload: EnrichmentJob }
  | { kind: 'webhook_delivery'; payload: WebhookDeliveryJob }
  | { kind: 'firewall_sync'; payload: FirewallSyncJob };

type OutboxWriter = Pick<Prisma.TransactionClient, 'outboxMessage'>;

export async function writeOutbox(tx: OutboxWriter, messages: OutboxMessage[]): Promise<bigint[]> {
  if (messages.length === 0) return [];
  // a row written while serving a request keeps its id, so the relayed job still logs it (docs/observability.md)
  // and the request's trace context when tracing is on, so the worker continues its trace
  const requestId = currentRequestId();
  const trace = currentTraceCarrier();
  const rows = await tx.outboxMessage.createManyAndReturn({
    data: messages.map((m) => ({
      kind: m.kind,
      payload: {
        ...(trace && !m.payload.traceparent ? trace : {}),
        ...m.payload,
        ...(m.payload.request_id || !requestId ? {} : { request_id: requestId }),
      } as Prisma.InputJsonValue,
    })),
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/** Marks rows whose job reached the queue, so the relay skips them. */
export async function markOutboxProcessed(tx: OutboxWriter, ids: bigint[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.outboxMessage.updateMany({ where: { id: { in: ids } }, data: { processed_at: new Date() } });
}
