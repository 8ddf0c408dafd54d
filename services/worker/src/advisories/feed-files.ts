// Where an OSV feed's files come from (docs/advisories.md "Feeds"): one JSON/YAML file, a directory tree of them,
// an OSV `all.zip` (or any zip of records), read from disk or fetched over HTTP(S). Parsing is the engine's
// (parseFeedFile); this module only reads bytes, within limits, so a hostile archive cannot exhaust memory.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { unzipSync } from 'fflate';

export interface FeedFile {
  name: string;
  text: string;
}

export const FEED_LIMITS = {
  /** one record file; OSV records are a few KiB (docs/advisories.md) */
  file_bytes: 8 * 1024 * 1024,
  /** a whole zip or download: PyPI's all.zip is ~30 MiB, every ecosystem's far more — import those per ecosystem */
  archive_bytes: 512 * 1024 * 1024,
  /** records files in one feed */
  files: 500_000,
} as const;

const RECORD_FILE = /\.(?:json|ya?ml)$/i;
const decoder = new TextDecoder('utf-8');

/** The record files of a zip archive (entries over the per-file limit, and everything else, skipped). */
export function zipFeedFiles(bytes: Uint8Array): FeedFile[] {
  if (bytes.byteLength > FEED_LIMITS.archive_bytes)
    throw new Error(`archive larger than ${FEED_LIMITS.archive_bytes} bytes`);
  let total = 0;
  const entries = unzipSync(bytes, {
    filter: (f) => {
      if (!RECORD_FILE.test(f.name) || f.originalSize > FEED_LIMITS.file_bytes) return false;
      total += f.originalSize;
      // the declared sizes bound what is inflated: a zip bomb is refused before it is expanded
      if (total > FEED_LIMITS.archive_bytes * 4) throw new Error('archive expands beyond the import limit');
      return true;
    },
  });
  const names = Object.keys(entries).sort();
  if (names.length > FEED_LIMITS.files) throw new Error(`more than ${FEED_LIMITS.files} record files`);
  return names.map((name) => ({ name, text: decoder.decode(entries[name]) }));
}

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

async function walk(dir: string, root: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) await walk(p, root, out);
    else if (e.isFile() && RECORD_FILE.test(e.name)) out.push(p);
    if (out.length > FEED_LIMITS.files) throw new Error(`more than ${FEED_LIMITS.files} record files under ${root}`);
  }
}

/** A file (record file or zip) or a directory tree of record files. */
export async function readFeedPath(path: string): Promise<FeedFile[]> {
  const st = await stat(path);
  if (st.isDirectory()) {
    const files: string[] = [];
    await walk(path, path, files);
    const out: FeedFile[] = [];
    for (const f of files) {
      const size = (await stat(f)).size;
      if (size > FEED_LIMITS.file_bytes)
        throw new Error(`${relative(path, f)} is larger than ${FEED_LIMITS.file_bytes} bytes`);
      out.push({ name: relative(path, f), text: await readFile(f, 'utf8') });
    }
    return out;
  }
  if (st.size > FEED_LIMITS.archive_bytes) throw new Error(`${path} is larger than ${FEED_LIMITS.archive_bytes} bytes`);
  const bytes = new Uint8Array(await readFile(path));
  if (isZip(bytes)) return zipFeedFiles(bytes);
  if (st.size > FEED_LIMITS.file_bytes) throw new Error(`${path} is larger than ${FEED_LIMITS.file_bytes} bytes`);
  return [{ name: path, text: decoder.decode(bytes) }];
}

/** The body of an HTTP(S) URL as a feed: a zip, or one record file named by the URL's path. */
export async function fetchFeedUrl(url: string, opts: { timeoutMs?: number } = {}): Promise<FeedFile[]> {
  const u = new URL(url);
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('only http(s) URLs are supported');
  const res = await fetch(u, { signal: AbortSignal.timeout(opts.timeoutMs ?? 300_000), redirect: 'follow' });
  if (!res.ok) throw new Error(`GET ${u.origin}${u.pathname} answered ${res.status}`);
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > FEED_LIMITS.archive_bytes)
    throw new Error(`the feed is larger than ${FEED_LIMITS.archive_bytes} bytes`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.byteLength;
    if (size > FEED_LIMITS.archive_bytes) throw new Error(`the feed is larger than ${FEED_LIMITS.archive_bytes} bytes`);
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  if (isZip(bytes)) return zipFeedFiles(bytes);
  if (size > FEED_LIMITS.file_bytes) throw new Error(`the record file is larger than ${FEED_LIMITS.file_bytes} bytes`);
  const name = u.pathname.split('/').pop() || 'feed.json';
  return [{ name, text: decoder.decode(bytes) }];
}
