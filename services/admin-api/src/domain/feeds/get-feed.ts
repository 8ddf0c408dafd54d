// One feed for a firewall (docs/feeds.md): the tenant's entries at a severity, written in the vendor's list
// format, with a strong ETag over the bytes (the same content always has the same tag, so an unchanged list is
// a 304 however often the device polls).
import { sha256Hex } from '@risk/common/crypto';
import { renderFeed, type FeedFormat, type FeedSeverity } from '@risk/firewalls';
import type { AdminDeps } from '../deps';
import { feedEntries } from './feed-entries';
import type { FeedCache, RenderedFeed } from './feed-cache';

export async function getFeed(
  deps: Pick<AdminDeps, 'readPrisma'> & { feedCache: FeedCache },
  input: { tenantId: string; format: FeedFormat; severity: FeedSeverity },
): Promise<RenderedFeed> {
  const key = `${input.tenantId}:${input.format}:${input.severity}`;
  return deps.feedCache.get<RenderedFeed>(key, async () => {
    // a feed tolerates replication lag as it tolerates its cache (docs/scaling.md "Read replicas")
    const entries = await feedEntries(
      { prisma: deps.readPrisma, feedCache: deps.feedCache },
      { tenantId: input.tenantId, severity: input.severity },
    );
    const rendered = renderFeed(input.format, entries);
    return { ...rendered, etag: `"${sha256Hex(`${input.format}\n${rendered.text}`).slice(0, 40)}"` };
  });
}

/** `If-None-Match` (a list of tags, or `*`) matches the current tag; weak tags compare by their opaque part. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((raw) => {
    const tag = raw.trim();
    return tag === '*' || (tag.startsWith('W/') ? tag.slice(2) : tag) === etag;
  });
}
