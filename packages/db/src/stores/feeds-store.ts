// The risk feed's one read (docs/feeds.md "What a feed holds"): the tenant's block list and its org's live
// application assets, in one statement, each part bounded and in a stable order. An asset's URL is the org's own
// (asset_orgs.source_url), never the shared asset's: no other org can add or remove a domain of this tenant's
// feed (docs/security.md "Display fields and feeds"). The URL risk of each asset's
// host is computed by the caller (admin-api), so every application asset with a URL is a candidate, riskiest
// first; the caller keeps those whose asset or URL risk reaches the feed's threshold.
import type { PrismaClient } from '../generated/prisma/client';

export interface FeedCandidateRow {
  /** block_list: the tenant's own entry; asset: an application asset its org observed (live mode) */
  origin: 'block_list' | 'asset';
  /** block list: domain | url; asset: the fingerprint */
  ref: string;
  /** block list: the entry; asset: the org's own source_url of it */
  value: string;
  /** asset: its intrinsic 0–100 risk score (null until enriched) */
  score: number | null;
}

export async function readFeedCandidates(
  db: Pick<PrismaClient, '$queryRaw'>,
  input: { tenantId: string; limit: number },
): Promise<FeedCandidateRow[]> {
  const { tenantId, limit } = input;
  return db.$queryRaw<FeedCandidateRow[]>`
    (SELECT 'block_list' AS origin, b.kind AS ref, b.value AS value, NULL::int AS score
       FROM feed_block_entries b
      WHERE b.tenant_id = ${tenantId}
      ORDER BY b.value
      LIMIT ${limit})
    UNION ALL
    (SELECT 'asset' AS origin, a.fingerprint AS ref, o.source_url AS value, a.intrinsic_risk_score AS score
       FROM tenants t
       JOIN asset_orgs o ON o.org_id = t.org_id AND o.livemode
       JOIN assets a ON a.livemode = o.livemode AND a.fingerprint = o.fingerprint
      WHERE t.id = ${tenantId} AND a.asset_type = 'application' AND o.source_url IS NOT NULL
      ORDER BY a.intrinsic_risk_score DESC NULLS LAST, a.fingerprint
      LIMIT ${limit})`;
}
