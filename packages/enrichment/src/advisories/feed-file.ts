// One file of an OSV feed (JSON or YAML; one record, or an array of records) → raw records, without I/O: the
// worker's feed reader hands the bytes over (docs/advisories.md "Feeds").
import { parse as parseYaml } from 'yaml';

export type FeedFileResult = { ok: true; records: unknown[] } | { ok: false; error: string };

/** Files larger than this are refused: one OSV record is a few KiB, the biggest PyPA record under 200 KiB. */
export const MAX_FEED_FILE_BYTES = 8 * 1024 * 1024;

export function parseFeedFile(name: string, text: string): FeedFileResult {
  if (text.length > MAX_FEED_FILE_BYTES)
    return { ok: false, error: `${name}: larger than ${MAX_FEED_FILE_BYTES} bytes` };
  let doc: unknown;
  try {
    // YAML anchors can build a cyclic (or exponential) structure: OSV records never need them, so the document
    // must survive a round trip through JSON, which also gives every feed the same plain data
    doc = /\.ya?ml$/i.test(name)
      ? JSON.parse(JSON.stringify(parseYaml(text, { maxAliasCount: 100 })))
      : JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `${name}: ${err instanceof Error ? err.message.split('\n')[0] : 'unparseable'}` };
  }
  if (Array.isArray(doc)) return { ok: true, records: doc };
  // the curated feed's wrapper: { _source, records: [...] }
  if (doc && typeof doc === 'object' && Array.isArray((doc as { records?: unknown }).records))
    return { ok: true, records: (doc as { records: unknown[] }).records };
  return { ok: true, records: [doc] };
}
