// What a tenant's feed holds at a severity (docs/feeds.md "What a feed holds"), in priority order for the cap:
//  1. the tenant's block list (always, whatever the severity);
//  2. its org's live application assets whose asset risk or URL risk reaches the severity's band, riskiest first;
//  3. the AI domains (shipped list and operator imports) whose URL risk reaches it.
// One statement reads 1 and 2 (readFeedCandidates); URL risk is the admin API's scorer (score-url.ts).
import { readFeedCandidates } from '@risk/db';
import {
  FEED_MAX_ENTRIES,
  FEED_SEVERITY_MIN_SCORE,
  isFeedHost,
  type FeedEntry,
  loadCategoryCatalog,
  type FeedSeverity,
} from '@risk/firewalls';
import type { AdminDeps, PrismaDeps } from '../deps';
import { scoreUrl } from '../risk-score/score-url';

/** how many application assets one feed computation reads at most (riskiest first) */
export const FEED_SCAN_LIMIT = 20_000;

// an AI domain's URL risk depends on the domain and the scoring version only: computed once per process
const domainScores = new Map<string, number>();

function urlRisk(url: string): number {
  try {
    return scoreUrl(url).risk_score;
  } catch {
    return 0; // not a URL the scorer reads: its asset risk alone decides
  }
}

function domainRisk(domain: string): number {
  let score = domainScores.get(domain);
  if (score === undefined) {
    score = urlRisk(`https://${domain}/`);
    domainScores.set(domain, score);
  }
  return score;
}

/** The host of an asset's source_url when it is a name a feed can carry (IP literals are left out). */
function hostOf(sourceUrl: string): string | null {
  try {
    const url = new URL(sourceUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const host = url.hostname.toLowerCase().replace(/\.$/, '');
    return isFeedHost(host) && !/^[0-9.]+$/.test(host) ? host : null;
  } catch {
    return null;
  }
}

/** One feed line's source: what it is, why it is there, and its risk (block-list entries are in every cut). */
export interface FeedCandidate extends FeedEntry {
  origin: 'block_list' | 'asset' | 'ai_domain';
  /** asset: its fingerprint; ai_domain: its AI category; block_list: null */
  ref: string | null;
  /** 0–100: the asset's risk or URL risk (the higher), the AI domain's URL risk; null for the block list */
  score: number | null;
}

/**
 * Every entry the tenant's feeds can hold, in priority order: the block list, then the risky entries, riskiest
 * first. One read for all four severities; cutFeed picks a severity's entries.
 */
export async function feedCandidates(deps: PrismaDeps, tenantId: string): Promise<FeedCandidate[]> {
  const [rows, catalog] = await Promise.all([
    readFeedCandidates(deps.prisma, { tenantId, limit: FEED_SCAN_LIMIT }),
    loadCategoryCatalog(deps.prisma),
  ]);
  const blocked: FeedCandidate[] = [];
  const risky: Array<FeedCandidate & { score: number }> = [];
  for (const row of rows) {
    if (row.origin === 'block_list') {
      blocked.push({
        type: row.ref === 'url' ? 'url' : 'domain',
        value: row.value,
        origin: 'block_list',
        ref: null,
        score: null,
      });
      continue;
    }
    const host = hostOf(row.value);
    if (!host) continue;
    const score = Math.max(row.score ?? 0, urlRisk(row.value));
    risky.push({ type: 'domain', value: host, origin: 'asset', ref: row.ref, score });
  }
  for (const entry of catalog.aiDomains) {
    const score = domainRisk(entry.domain);
    risky.push({ type: 'domain', value: entry.domain, origin: 'ai_domain', ref: entry.category, score });
  }
  risky.sort((a, b) => b.score - a.score || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return [...blocked, ...risky];
}

/** The entries of the feed cut at `severity`: the block list and every entry whose risk reaches the band, capped. */
export function cutFeed(candidates: readonly FeedCandidate[], severity: FeedSeverity): FeedCandidate[] {
  const threshold = FEED_SEVERITY_MIN_SCORE[severity];
  return candidates.filter((c) => c.score === null || c.score >= threshold).slice(0, FEED_MAX_ENTRIES * 2);
}

/**
 * The tenant's candidates as every feed of the tenant and the URL risk score read them: computed once per cache
 * TTL and shared, so the risk score answers what the devices are served (docs/feeds.md "ETag and caching").
 */
export function cachedFeedCandidates(
  deps: PrismaDeps & Pick<AdminDeps, 'feedCache'>,
  tenantId: string,
): Promise<readonly FeedCandidate[]> {
  return deps.feedCache.get(`candidates:${tenantId}`, () => feedCandidates(deps, tenantId));
}

export async function feedEntries(
  deps: PrismaDeps & Pick<AdminDeps, 'feedCache'>,
  input: { tenantId: string; severity: FeedSeverity },
): Promise<FeedEntry[]> {
  return cutFeed(await cachedFeedCandidates(deps, input.tenantId), input.severity);
}
