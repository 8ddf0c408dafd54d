// Marking assets for re-enrichment after shared intelligence changed — a threat (docs/threats.md) or an advisory
// feed (docs/advisories.md) — in one statement, whichever driver runs it (the API's Prisma transaction, the
// worker's pg pool): one text, never two copies of the lock order.

/**
 * The statement for a `matched` query of (livemode, fingerprint) rows using $1..$n: enriched assets among them
 * become `stale`, and enriched, stale and pending ones get one enrichment outbox row {livemode, fingerprint, digest:
 * latest_digest, reason} (`reasonParam`, e.g. `$3`; the reason makes the job id differ from the content-driven
 * enrichment of the same digest). Assets are locked in (livemode, fingerprint) order, the order signal ingest locks
 * them in: another order deadlocks with a concurrent ingest (docs/reliability.md "Lock order"). Data-modifying CTEs
 * run to completion, read or not. Answers the outbox rows written: id, livemode, fingerprint, digest.
 */
export function reenrichMatchedSql(matchedSql: string, reasonParam: string): string {
  return `WITH matched AS (${matchedSql}),
     locked AS MATERIALIZED (
       SELECT a.livemode, a.fingerprint FROM assets a JOIN matched m USING (livemode, fingerprint)
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
                                               'digest', a.latest_digest, 'reason', ${reasonParam}::text)
       FROM assets a JOIN matched m USING (livemode, fingerprint)
       WHERE a.enrichment_status IN ('enriched', 'stale', 'pending')
       RETURNING id, payload
     )
     SELECT id, (payload->>'livemode')::boolean AS livemode, payload->>'fingerprint' AS fingerprint,
            payload->>'digest' AS digest
       FROM queued`;
}
