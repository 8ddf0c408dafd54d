import {
  enqueueDeliveries,
  markOutboxProcessed,
  type EnrichmentJob,
  type FannedOutDelivery,
  type Logger,
  type QueueProducer,
} from '@risk/common';
import { Prisma, type PrismaClient } from '@risk/db';
import { matchingAssetsSql, type ThreatMatchKeys } from '@risk/common';

export interface ThreatDeps {
  db: PrismaClient;
  /** null when Redis is not wired (the outbox relay then does all enqueueing) */
  producer?: Pick<QueueProducer, 'enqueueEnrichment' | 'enqueueWebhookDelivery'> | null;
  logger?: Logger;
  /** how long the post-commit fast path may wait on Redis */
  enqueueTimeoutMs?: number;
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
  const matched = Prisma.join(
    keySets.map((k) => Prisma.sql`(${matchingAssetsSql(k)})`),
    ' UNION ',
  );
  const rows = await tx.$queryRaw<Array<{ id: bigint; fingerprint: string; digest: string }>>`
    WITH matched AS (${matched}),
    -- in the order signal ingest locks assets (livemode, fingerprint): locking in another order deadlocks
    -- with a concurrent ingest (docs/reliability.md "Lock order")
    locked AS MATERIALIZED (
      SELECT a.livemode, a.fingerprint FROM assets a JOIN matched m ON a.livemode = ${livemode} AND a.fingerprint = m.fingerprint
      WHERE a.enrichment_status = 'enriched'
      ORDER BY a.livemode, a.fingerprint FOR UPDATE OF a
    ),
    staled AS (
      UPDATE assets a SET enrichment_status = 'stale', updated = now()
      FROM locked l
      WHERE a.livemode = l.livemode AND a.fingerprint = l.fingerprint AND a.enrichment_status = 'enriched'
      RETURNING a.fingerprint
    ),
    queued AS (
      INSERT INTO outbox (kind, payload)
      SELECT 'enrichment', jsonb_build_object('livemode', a.livemode, 'fingerprint', a.fingerprint,
                                              'digest', a.latest_digest, 'reason', ${reason}::text)
      FROM assets a JOIN matched m ON a.livemode = ${livemode} AND m.fingerprint = a.fingerprint
      WHERE a.enrichment_status IN ('enriched', 'stale', 'pending')
      RETURNING id, payload
    )
    -- data-modifying CTEs (staled) always run to completion, read or not
    SELECT id, payload->>'fingerprint' AS fingerprint, payload->>'digest' AS digest FROM queued`;
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
        enrichments.map((e) => ({ outboxId: e.outbox_id, job: e.job })),
        timeoutMs,
      );
      await markOutboxProcessed(
        deps.db,
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
    const ok = await enqueueDeliveries(deps.db, deps.producer, deliveries, timeoutMs);
    if (!ok && deps.producer)
      deps.logger?.warn('enqueue of webhook deliveries failed; the outbox relay will retry', {
        count: deliveries.length,
      });
  }
}
