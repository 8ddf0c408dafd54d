// How the simulated devices pull an external list (docs/feeds.md "Simulators"): like PAN-OS External Dynamic
// Lists and FortiGate external threat feeds, a list is fetched over HTTP(S) on an interval and on demand, with
// HTTP Basic credentials when configured and `If-None-Match` once an ETag is known; a failed pull keeps the
// last good copy (both vendors do: "Unable to fetch external list. Using old copy for refresh.").
import http from 'node:http';
import https from 'node:https';
import { parseFeedText } from '../feeds/feed-format';

export interface FeedSource {
  url: string;
  username?: string;
  password?: string;
}

export interface PulledList {
  source: FeedSource;
  entries: string[];
  etag: string | null;
  /** HTTP status of the last pull (0: the connection failed) */
  lastStatus: number | null;
  lastError: string | null;
  pulls: number;
}

const MAX_LIST_BYTES = 10 * 1024 * 1024; // FortiOS's limit for one feed file

function fetchText(
  source: FeedSource,
  etag: string | null,
): Promise<{ status: number; body: string; etag: string | null }> {
  const url = new URL(source.url);
  const client = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = { Accept: 'text/plain' };
  if (source.username !== undefined)
    headers.Authorization = `Basic ${Buffer.from(`${source.username}:${source.password ?? ''}`).toString('base64')}`;
  if (etag) headers['If-None-Match'] = etag;
  return new Promise((resolve, reject) => {
    // a simulator is a test device: it trusts the test server's certificate (a real device uses its certificate profile)
    const req = client.get(url, { headers, timeout: 5000, rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_LIST_BYTES) req.destroy(new Error('list larger than 10 MiB'));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        const tag = res.headers.etag;
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), etag: tag ?? null });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/** The lists one simulated device pulls, by object name. */
export class FeedPuller {
  readonly lists = new Map<string, PulledList>();
  private timer: NodeJS.Timeout | null = null;

  /** Sets the configured lists: new or changed sources start empty, removed ones are dropped. */
  configure(sources: Map<string, FeedSource>): void {
    for (const name of [...this.lists.keys()]) if (!sources.has(name)) this.lists.delete(name);
    for (const [name, source] of sources) {
      const known = this.lists.get(name);
      if (known && JSON.stringify(known.source) === JSON.stringify(source)) continue;
      this.lists.set(name, { source, entries: [], etag: null, lastStatus: null, lastError: null, pulls: 0 });
    }
  }

  /** Pulls one list (or all): 200 replaces the entries, 304 keeps them, anything else keeps the old copy. */
  async refresh(name?: string): Promise<void> {
    const targets = name === undefined ? [...this.lists.values()] : [this.lists.get(name)].filter((l) => !!l);
    await Promise.all(
      targets.map(async (list) => {
        list.pulls++;
        try {
          const res = await fetchText(list.source, list.etag);
          list.lastStatus = res.status;
          list.lastError = res.status === 200 || res.status === 304 ? null : `HTTP ${res.status}`;
          if (res.status === 200) {
            list.entries = parseFeedText(res.body);
            list.etag = res.etag;
          }
        } catch (err) {
          list.lastStatus = 0;
          list.lastError = (err as Error).message;
        }
      }),
    );
  }

  /** Pull every list every `intervalMs` (PAN-OS: five minutes at the shortest; FortiOS: refresh-rate minutes). */
  start(intervalMs: number): void {
    this.stop();
    this.timer = setInterval(() => void this.refresh(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
