// The risk feeds firewalls pull (docs/feeds.md): which lists exist, where they are served, and how one list is
// written in each vendor's plain-text format. Pure: the admin API computes the entries, the compilers point
// the device at the path, the simulators parse what they pulled with the same rules.
import { FEED_FORMAT_VALUES, FEED_SEVERITY_VALUES, type RiskSeverity } from '@risk/contracts';

/**
 * - `panos-url`: PAN-OS External Dynamic List of type URL List: one entry a line, no scheme (`http://` and
 *   `https://` are not part of an entry), `*` stands for one or more whole tokens, at most 255 characters;
 * - `panos-domain`: PAN-OS EDL of type Domain List: one domain a line; the EDL object the connector creates
 *   sets "expand to include subdomains", so `example.com` also covers `www.example.com`;
 * - `fortigate-url`: FortiGate external threat feed of type FortiGuard Category (a remote category the web
 *   filter profile references): one URL a line, a `*` wildcard at the start;
 * - `fortigate-domain`: FortiGate external threat feed of type Domain Name (DNS filter): one domain a line,
 *   simple wildcards.
 */
export const FEED_FORMATS = FEED_FORMAT_VALUES;
export type FeedFormat = (typeof FEED_FORMATS)[number];

/** A feed is cut at a severity; `informational` would list every asset, so it is not offered. */
export const FEED_SEVERITIES = FEED_SEVERITY_VALUES;
export type FeedSeverity = Extract<RiskSeverity, (typeof FEED_SEVERITIES)[number]>;

/** The lowest 0–100 score of each severity band (docs/public-api.md "Severity bands"). */
export const FEED_SEVERITY_MIN_SCORE: Record<FeedSeverity, number> = { critical: 90, high: 70, medium: 40, low: 10 };

/**
 * The most lines one feed holds. PAN-OS platforms take 50,000 URLs and 50,000 domains across every EDL of the
 * device (the smallest platforms' limit) and FortiOS 131,072 lines a feed: 10,000 leaves room for the
 * operator's other lists. When more qualify, the tenant's block list goes first, then the riskiest entries.
 */
export const FEED_MAX_ENTRIES = 10_000;

/** PAN-OS refuses URL-list entries longer than 255 characters; a host name has at most 253 (RFC 1035). */
export const FEED_MAX_ENTRY_LENGTH = 255;

/** A feed entry: a domain covers the host and every subdomain; a URL is host + path, without a scheme. */
export interface FeedEntry {
  type: 'domain' | 'url';
  value: string;
}

/** The path of one feed on the admin API (docs/feeds.md "Routes"). */
export function feedPath(format: FeedFormat, severity: FeedSeverity): string {
  return `/feeds/v1/lists/${format}/${severity}`;
}

const HOST = /^(?=.{1,253}$)[a-z0-9-]+(\.[a-z0-9-]+)+$/;
// a URL entry's path: printable ASCII without spaces, quotes or backslashes (nothing a line or a shell could split)
const URL_PATH = /^\/[\x21\x23-\x5b\x5d-\x7e]*$/;

/** Is this a host name we may write on a line (lower-case ASCII labels, at least one dot)? */
export function isFeedHost(value: string): boolean {
  return HOST.test(value) && !value.split('.').some((label) => !label || label.startsWith('-') || label.endsWith('-'));
}

/** Is this a URL entry (`host/path`) we may write on a line? */
export function isFeedUrl(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash <= 0 || value.length > FEED_MAX_ENTRY_LENGTH) return false;
  return isFeedHost(value.slice(0, slash)) && URL_PATH.test(value.slice(slash));
}

/** The lines of one entry in one format (none when the format cannot hold it). */
function linesOf(format: FeedFormat, entry: FeedEntry): string[] {
  if (entry.type === 'url') return format === 'panos-url' || format === 'fortigate-url' ? [entry.value] : [];
  if (format === 'panos-domain') return [entry.value];
  return [entry.value, `*.${entry.value}`];
}

/**
 * The feed text: one entry a line, `\n` line ends, sorted so the same content always has the same bytes
 * (the ETag), at most FEED_MAX_ENTRIES lines of at most FEED_MAX_ENTRY_LENGTH characters. `entries` come in
 * priority order (the cap keeps the first ones); anything not a clean host or URL is dropped, so no entry can
 * carry a line break or a scheme into the device's list.
 */
export function renderFeed(
  format: FeedFormat,
  entries: readonly FeedEntry[],
): { text: string; count: number; truncated: boolean } {
  const lines = new Set<string>();
  let truncated = false;
  for (const entry of entries) {
    const valid = entry.type === 'domain' ? isFeedHost(entry.value) : isFeedUrl(entry.value);
    if (!valid) continue;
    const add = linesOf(format, entry).filter((line) => line.length <= FEED_MAX_ENTRY_LENGTH && !lines.has(line));
    if (lines.size + add.length > FEED_MAX_ENTRIES) {
      truncated = true;
      break;
    }
    for (const line of add) lines.add(line);
  }
  const sorted = [...lines].sort();
  return { text: sorted.length ? `${sorted.join('\n')}\n` : '', count: sorted.length, truncated };
}

/** A pulled list → its entries, the way the devices read one: trimmed lines, blank lines and `#` comments skipped. */
export function parseFeedText(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line && !line.startsWith('#'));
}
