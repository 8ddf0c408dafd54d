import { sha256Hex } from '@risk/common/crypto';

/**
 * The enrichment trigger rules (docs/public-api.md "Enrichment triggers"), as one pure function. Enrichment runs when the asset is new,
 * when the signal's content digest differs from the one last enriched, when the asset failed, or when
 * its last enrichment is older than ENRICHMENT_TTL_DAYS. A job already waiting for the same digest is
 * not queued twice: job ids are per outbox row (`enr-o<outbox id>`, docs/reliability.md "Enrichment jobs"),
 * so a second row would be a second job, a no-op by its digest check; deciding here saves the row and the job.
 */
export type AssetStatus = 'pending' | 'enriched' | 'failed' | 'stale';

export interface PreviousAssetState {
  enrichment_status: string;
  /** the asset's observation-set digest */
  latest_digest: string;
  enriched_digest: string | null;
  enriched_at: Date | null;
  /** the submitting org's latest observation of the asset (asset_orgs), null when it has none */
  org_digest: string | null;
  org_last_seen: Date | null;
}

/**
 * The asset's digest after an org's new observation (docs/security.md "Modes and shared
 * observations"). Enrichment reads every org's latest observation, so "the content changed" means "the
 * set of observations changed": the digest is chained (sha256 over the previous digest, the org and
 * its new content digest) whenever the org's observation changes — new content, a first observation,
 * or one that had expired (OBSERVATION_TTL_DAYS) counting again — and stays put otherwise. A new asset
 * starts from its first signal's content digest. Chaining costs O(1) per signal however many orgs
 * observed the asset; returning to an earlier set re-enriches once, which is harmless.
 */
export function observationSetDigest(
  prev: PreviousAssetState,
  {
    orgId,
    contentDigest,
    now,
    observationTtlDays,
  }: { orgId: string; contentDigest: string; now: Date; observationTtlDays: number },
): string {
  const expired =
    prev.org_last_seen !== null && now.getTime() - prev.org_last_seen.getTime() > observationTtlDays * 86_400_000;
  if (prev.org_digest === contentDigest && !expired) return prev.latest_digest;
  return sha256Hex(`${prev.latest_digest}\n${orgId}\n${contentDigest}`);
}

export type EnrichmentDecision =
  | {
      status: 'queued';
      reason: 'new_asset' | 'content_changed' | 'enrichment_failed' | 'ttl_expired';
      nextStatus: AssetStatus;
    }
  | { status: 'skipped'; reason: 'up_to_date' | 'enrichment_in_progress' | 'superseded_in_batch'; nextStatus: null };

export function decideEnrichment(
  prev: PreviousAssetState | null,
  { digest, now, ttlDays }: { digest: string; now: Date; ttlDays: number },
): EnrichmentDecision {
  if (!prev) return { status: 'queued', reason: 'new_asset', nextStatus: 'pending' };
  const waitingForThisDigest = prev.latest_digest === digest;
  switch (prev.enrichment_status) {
    case 'failed':
      return { status: 'queued', reason: 'enrichment_failed', nextStatus: 'pending' };
    case 'pending':
      // a job for the asset is waiting; only new content needs another one
      return waitingForThisDigest
        ? { status: 'skipped', reason: 'enrichment_in_progress', nextStatus: null }
        : { status: 'queued', reason: 'content_changed', nextStatus: 'pending' };
    default: {
      // enriched or stale: the last good result is being served
      const stale = prev.enrichment_status === 'stale';
      if (prev.enriched_digest !== digest) {
        if (stale && waitingForThisDigest)
          return { status: 'skipped', reason: 'enrichment_in_progress', nextStatus: null };
        return { status: 'queued', reason: 'content_changed', nextStatus: 'stale' };
      }
      const expired = !prev.enriched_at || now.getTime() - prev.enriched_at.getTime() > ttlDays * 86_400_000;
      if (stale) return { status: 'skipped', reason: 'enrichment_in_progress', nextStatus: null };
      if (expired) return { status: 'queued', reason: 'ttl_expired', nextStatus: 'stale' };
      return { status: 'skipped', reason: 'up_to_date', nextStatus: null };
    }
  }
}
