import { enqueueDeliveries } from '@risk/common/events';
import { type FannedOutDelivery } from '@risk/db';
import { type Logger } from '@risk/common/observability';
import { markOutboxProcessed } from '@risk/common/outbox';
import { type EnrichmentJob, type QueueProducer } from '@risk/common/queue';
import { markThreatMatchesForReenrichment, type Prisma, type PrismaClient, type ThreatMatchKeys } from '@risk/db';

export interface ThreatDeps {
  prisma: PrismaClient;
  /** null when Redis is not wired (the outbox relay then does all enqueueing) */
  producer?: Pick<QueueProducer, 'enqueueEnrichment' | 'enqueueWebhookDelivery'> | null;
  logger?: Logger;
  /** how long the post-commit fast path may wait on Redis */
  enqueueTimeoutMs?: number;
  /** the request's id: its jobs carry it into the worker's log lines (docs/observability.md) */
  requestId?: string;
  /**
   * Counts `weight` threats about to be created or changed against the org's threat-write cap, before they are
   * written; throws (429) to refuse the whole request (docs/security.md "Caps per org"). Every use case that writes
   * threats calls it: create and update with 1, an import with the threats its merge would write.
   */
  countWrites?: (weight: number) => Promise<void>;
}

export interface QueuedEnrichment {
  outbox_id: bigint;
  job: EnrichmentJob;
}

/**
 * In the caller's transaction, for every asset matching any of `keySets` (a threat before and after
 * a change; one threat, so one mode): enriched assets of that mode become stale, and enriched, stale
 * and pending ones get an outbox row kind 'enrichment' {livemode, fingerprint, digest: latest_digest,
 * reason}. One statement; the reason makes the job id differ from the content-driven enrichment of the
 * same digest. A threat never touches the assets of the other mode.
 */
export async function markMatchingAssetsForReenrichment(
  tx: Prisma.TransactionClient,
  keySets: ThreatMatchKeys[],
  reason: string,
): Promise<QueuedEnrichment[]> {
  const livemode = keySets[0]?.livemode;
  if (livemode === undefined) return [];
  if (keySets.some((k) => k.livemode !== livemode)) throw new Error('threat key sets of two modes');
  const rows = await markThreatMatchesForReenrichment(tx, { livemode, keySets, reason });
  return rows.map((r) => ({
    outbox_id: BigInt(r.id),
    job: { livemode, fingerprint: r.fingerprint, digest: r.digest, reason },
  }));
}

/**
 * After commit: try to enqueue at once (short timeout) and mark the outbox rows processed. Any
 * failure is logged and left to the worker's outbox relay. Never throws.
 */
export async function enqueueAfterCommit(
  deps: ThreatDeps,
  enrichments: QueuedEnrichment[],
  deliveries: FannedOutDelivery[],
): Promise<void> {
  const timeoutMs = deps.enqueueTimeoutMs ?? 1000;
  if (deps.producer && enrichments.length > 0) {
    try {
      await deps.producer.enqueueEnrichment(
        enrichments.map((e) => ({
          outboxId: e.outbox_id,
          job: deps.requestId ? { ...e.job, request_id: deps.requestId } : e.job,
        })),
        timeoutMs,
      );
      await markOutboxProcessed(
        deps.prisma,
        enrichments.map((e) => e.outbox_id),
      );
    } catch (err) {
      deps.logger?.warn('enqueue of threat re-enrichment failed; the outbox relay will retry', {
        err,
        count: enrichments.length,
      });
    }
  }
  if (deliveries.length > 0) {
    const ok = await enqueueDeliveries(deps, deliveries, {
      timeoutMs,
      requestId: deps.requestId,
    });
    if (!ok && deps.producer)
      deps.logger?.warn('enqueue of webhook deliveries failed; the outbox relay will retry', {
        count: deliveries.length,
      });
  }
}
