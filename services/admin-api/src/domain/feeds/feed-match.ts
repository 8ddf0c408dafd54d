// Is a URL in the tenant's risk feed, and at which severity? (docs/feeds.md "Why a URL is in a feed"). The answer
// comes from the very entries the feeds serve (feedCandidates, cutFeed), read the way the devices read a list: a
// domain entry covers the host and its subdomains; a URL entry (host/path, maybe with a query) covers that URL,
// the paths below it and the same path with any query.
import { FEED_SEVERITIES, type FeedSeverity } from '@risk/firewalls';
import { cutFeed, type FeedCandidate } from './feed-entries';

export interface FeedMatch {
  /** the most severe feed cut that lists the URL */
  severity: FeedSeverity;
  entry: FeedCandidate;
}

/** The URL as a feed entry would name it: the host and the path (no scheme, no query). */
export interface FeedTarget {
  host: string;
  /** host + path + query, e.g. `example.com/login?next=1` */
  hostPath: string;
}

function covers(entry: FeedCandidate, target: FeedTarget): boolean {
  if (entry.type === 'domain') return target.host === entry.value || target.host.endsWith(`.${entry.value}`);
  const url = target.hostPath;
  if (url === entry.value) return true;
  if (entry.value.endsWith('/')) return url.startsWith(entry.value);
  return url.startsWith(`${entry.value}/`) || url.startsWith(`${entry.value}?`);
}

/** The most severe cut (critical first) whose entries cover the target, with the entry that does; else null. */
export function feedMatch(candidates: readonly FeedCandidate[], target: FeedTarget): FeedMatch | null {
  for (const severity of FEED_SEVERITIES) {
    const entry = cutFeed(candidates, severity).find((c) => covers(c, target));
    if (entry) return { severity, entry };
  }
  return null;
}
