import type { Prisma } from '@risk/db';
import type { EnrichmentJob, FirewallSyncJob, WebhookDeliveryJob } from './queue';

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
  const rows = await tx.outboxMessage.createManyAndReturn({
    data: messages.map((m) => ({ kind: m.kind, payload: m.payload as Prisma.InputJsonValue })),
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/** Marks rows whose job reached the queue, so the relay skips them. */
export async function markOutboxProcessed(tx: OutboxWriter, ids: bigint[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.outboxMessage.updateMany({ where: { id: { in: ids } }, data: { processed_at: new Date() } });
}
