import { EVENT_TYPE_NAMES, type EventExtra, type EventObject } from '@risk/contracts';
import { fanOutEvents, type FannedOutDelivery, type Prisma } from '@risk/db';
import { newId, ID_PREFIXES } from '@risk/db';
import type { QueueProducer } from './queue';

/**
 * The event catalogue. Events are written in the same transaction as the change that causes them
 * (recordEvents(tx, …)), and the same call fans them out to webhook endpoints: one
 * webhook_deliveries row per (event, subscribed endpoint) plus an outbox row kind 'webhook_delivery'
 * per delivery, so a committed event always reaches the delivery queue (fast path after commit, or the
 * worker's outbox relay). Audience, always within the event's mode (an event of one mode reaches only
 * endpoints of that mode): an event with org_id goes to that org; with fingerprint, to the orgs that
 * submitted signals for the asset of that mode (asset_orgs); with neither, to every org.
 */
// the catalogue itself is part of the API contract (packages/contracts/src/public/events.ts)
export const EVENT_TYPES = EVENT_TYPE_NAMES;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/** Events are kept (and listed by GET /v1/events) for this long. */
export const EVENT_RETENTION_DAYS = 30;

/**
 * An event to record, keyed by its type: `object` and `extra` are that type's payload in the catalogue
 * (@risk/contracts EventData, read from the webhook payload schemas), so an emitter that writes the wrong shape
 * for its type does not compile. `NewEvent` alone is the union of every type's; `NewEvent<'threat.created'>` one.
 */
export type NewEvent<T extends EventType = EventType> = {
  [K in T]: {
    type: K;
    livemode: boolean;
    /** the resource as the API would render it */
    object: EventObject<K>;
    org_id?: string | null;
    fingerprint?: string | null;
  } & ExtraOf<K>;
}[T];

/** extra fields next to `object` in `data` (previous_attributes for asset.risk_changed): required when the type has any */
type ExtraOf<K extends EventType> = object extends EventExtra<K> ? { extra?: EventExtra<K> } : { extra: EventExtra<K> };

/** What recordEvents needs of a transaction client: the events table and raw SQL for the fan-out. */
export type EventWriter = Pick<Prisma.TransactionClient, 'event'> & Parameters<typeof fanOutEvents>[0];

export interface RecordedEvents {
  event_ids: string[];
  /** deliveries created for the events; enqueue them after commit with enqueueDeliveries() */
  deliveries: FannedOutDelivery[];
}

/**
 * Inserts the events and fans them out, set-based, in the caller's transaction. Returns the event ids.
 * Use recordEventsWithDeliveries when the caller wants to enqueue the deliveries right after commit.
 */
export async function recordEvents(tx: EventWriter, events: NewEvent[]): Promise<string[]> {
  return (await recordEventsWithDeliveries(tx, events)).event_ids;
}

export async function recordEventsWithDeliveries(tx: EventWriter, events: NewEvent[]): Promise<RecordedEvents> {
  if (events.length === 0) return { event_ids: [], deliveries: [] };
  const rows = events.map((e) => ({
    id: newId(ID_PREFIXES.event),
    type: e.type,
    livemode: e.livemode,
    org_id: e.org_id ?? null,
    fingerprint: e.fingerprint ?? null,
    data: { object: e.object, ...(e.extra ?? {}) } as Prisma.InputJsonValue,
  }));
  await tx.event.createMany({ data: rows });
  const deliveries = await fanOutEvents(
    tx,
    rows.map((r) => r.id),
  );
  return { event_ids: rows.map((r) => r.id), deliveries };
}

// the fan-out's statement lives in @risk/db's events store (docs/data-access.md)

/**
 * Fast path after commit: puts the deliveries on the queue and marks their outbox rows processed.
 * Failures are swallowed; the outbox relay enqueues whatever is left. Never throws.
 */
export async function enqueueDeliveries(
  deps: {
    prisma: Pick<Prisma.TransactionClient, 'outboxMessage'>;
    producer?: Pick<QueueProducer, 'enqueueWebhookDelivery'> | null;
  },
  deliveries: FannedOutDelivery[],
  opts: { timeoutMs?: number; requestId?: string } = {},
): Promise<boolean> {
  const { prisma, producer } = deps;
  if (!producer || deliveries.length === 0) return deliveries.length === 0;
  const { timeoutMs = 1000, requestId } = opts;
  try {
    // without a requestId the producer takes the one of the request or job being served (queue.ts currentRequestId)
    await Promise.all(
      deliveries.map((d) =>
        producer.enqueueWebhookDelivery({
          delivery_id: d.delivery_id,
          attempt: 1,
          timeoutMs,
          ...(requestId ? { request_id: requestId } : {}),
        }),
      ),
    );
    await prisma.outboxMessage.updateMany({
      where: { id: { in: deliveries.map((d) => d.outbox_id) } },
      data: { processed_at: new Date() },
    });
    return true;
  } catch {
    return false;
  }
}
