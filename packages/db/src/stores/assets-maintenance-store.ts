// The assets' periodic upkeep (worker maintenance; docs/reliability.md "Lock order"): each step one set-based
// statement that first locks its assets in (livemode, fingerprint) order, the order signal ingest locks them in
// (ri_assets_lock), so two writers never deadlock.
import type { Pool } from 'pg';

/**
 * Enriched assets enriched before `cutoff` become stale, each with an enrichment outbox row carrying `reason`
 * (so the job id differs from the original enrichment of the same digest). Returns how many.
 */
export async function staleExpiredEnrichments(
  db: Pick<Pool, 'query'>,
  input: { cutoff: Date; reason: string },
): Promise<number> {
  const r = await db.query(
    `WITH locked AS MATERIALIZED (
       SELECT livemode, fingerprint FROM assets
        WHERE enrichment_status = 'enriched' AND enriched_at < $1
        ORDER BY livemode, fingerprint FOR UPDATE
     ),
     expired AS (
       UPDATE assets a SET enrichment_status = 'stale', updated = now()
         FROM locked l
        WHERE a.livemode = l.livemode AND a.fingerprint = l.fingerprint
          AND a.enrichment_status = 'enriched' AND a.enriched_at < $1
        RETURNING a.livemode, a.fingerprint, a.latest_digest
     )
     INSERT INTO outbox (kind, payload)
     SELECT 'enrichment', jsonb_build_object('livemode', livemode, 'fingerprint', fingerprint, 'digest', latest_digest, 'reason', $2::text)
       FROM expired`,
    [input.cutoff, input.reason],
  );
  return r.rowCount ?? 0;
}

/**
 * Enriched assets whose observation set shrank because an org's observation (asset_orgs.last_seen in
 * [`since`, `expiredBefore`)) passed its TTL since the asset was enriched become stale, each with an enrichment
 * outbox row carrying `reason`. `ttlMs` is the observation TTL; a minute of slack covers the job's clock running
 * slightly ahead of enriched_at. Returns how many.
 */
export async function staleShrunkObservations(
  db: Pick<Pool, 'query'>,
  input: { since: Date; expiredBefore: Date; ttlMs: number; reason: string },
): Promise<number> {
  const r = await db.query(
    `WITH locked AS MATERIALIZED (
       SELECT a.livemode, a.fingerprint FROM assets a
         JOIN (SELECT DISTINCT ao.livemode, ao.fingerprint FROM asset_orgs ao
                WHERE ao.last_seen >= $1 AND ao.last_seen < $2) x
           ON a.livemode = x.livemode AND a.fingerprint = x.fingerprint
        WHERE a.enrichment_status = 'enriched'
        ORDER BY a.livemode, a.fingerprint FOR UPDATE OF a
     ),
     shrunk AS (
       UPDATE assets a SET enrichment_status = 'stale', updated = now()
         FROM locked x
        WHERE a.livemode = x.livemode AND a.fingerprint = x.fingerprint AND a.enrichment_status = 'enriched'
          AND EXISTS (SELECT 1 FROM asset_orgs ao
                       WHERE ao.livemode = a.livemode AND ao.fingerprint = a.fingerprint AND ao.last_seen < $2
                         AND ao.last_seen >= a.enriched_at - make_interval(secs => $3::float8 / 1000) - interval '1 minute')
        RETURNING a.livemode, a.fingerprint, a.latest_digest
     )
     INSERT INTO outbox (kind, payload)
     SELECT 'enrichment', jsonb_build_object('livemode', livemode, 'fingerprint', fingerprint, 'digest', latest_digest, 'reason', $4::text)
       FROM shrunk`,
    [input.since, input.expiredBefore, input.ttlMs, input.reason],
  );
  return r.rowCount ?? 0;
}
