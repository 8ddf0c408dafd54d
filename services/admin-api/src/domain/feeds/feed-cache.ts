// Rendered feeds kept for a short while per (tenant, format, severity), and each tenant's feed candidates, which
// every feed and the URL risk score read (docs/feeds.md "ETag and caching"): a fleet of firewalls polling every
// five minutes costs one computation per TTL, and a poll answered 304 costs none.
export interface RenderedFeed {
  text: string;
  etag: string;
  count: number;
  truncated: boolean;
}

export class FeedCache {
  // the computation's promise is kept, so concurrent misses of one key share a single computation
  private readonly entries = new Map<string, { value: Promise<unknown>; at: number }>();

  /** ttlMs 0: no caching (tests of the risk → feed loop) */
  constructor(private readonly ttlMs: number) {}

  get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value as Promise<T>;
    const value = compute();
    if (this.ttlMs > 0) {
      if (this.entries.size >= 10_000) this.entries.clear(); // bounded: tenants × (16 feeds + candidates)
      this.entries.set(key, { value, at: now });
      // a failed computation is not kept: the next request computes again
      value.catch(() => {
        if (this.entries.get(key)?.value === value) this.entries.delete(key);
      });
    }
    return value;
  }
}
