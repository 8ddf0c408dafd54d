// `advisories import` / `advisories sync` and the first-start load share this (docs/advisories.md "Import"): parse
// every file, normalize each OSV record, upsert in batches, then re-enrich the assets of the packages whose
// advisories were added, changed or withdrawn — as a new threat does (docs/threats.md).
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { markAssetsForAdvisoryReenrichment, upsertAdvisories, type AdvisoryRow } from '@risk/db';
import { normalizeOsv, packageNameKey, parseFeedFile } from '@risk/enrichment';
import type { FeedFile } from './feed-files';

export interface ImportProgress {
  done: number;
  total: number;
}

export interface ImportResult {
  source: string;
  files: number;
  records: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** records of this import that are withdrawn (stored, never matched) */
  withdrawn: number;
  invalid: number;
  /** the first problems found (unparseable files, records without id): the rest are counted in `invalid` */
  errors: string[];
  /** assets queued for re-enrichment because their packages' advisories changed */
  reenrichments: number;
  ms: number;
}

/** A feed name: letters, digits, `.`, `_`, `-` (it is stored and shown; docs/advisories.md). */
export const FEED_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;
const BATCH = 500;
const MAX_ERRORS = 20;

function rowOf(raw: unknown, errors: string[]): AdvisoryRow | null {
  const n = normalizeOsv(raw);
  if (!n.ok) {
    if (errors.length < MAX_ERRORS) errors.push(n.error);
    return null;
  }
  const r = n.record;
  const packages = new Map<string, { ecosystem: string; name: string }>();
  for (const a of r.affected) {
    const name = packageNameKey(a.ecosystem, a.name);
    packages.set(`${a.ecosystem}:${name}`, { ecosystem: a.ecosystem, name });
  }
  const json = JSON.stringify(raw);
  return {
    id: r.id,
    aliases: r.aliases,
    summary: r.summary,
    severity: r.severity,
    modified: r.modified,
    published: r.published,
    withdrawn: r.withdrawn,
    // NUL cannot be stored in jsonb (docs/data-access.md): such a record is refused, not mangled
    osv: raw,
    content_hash: createHash('sha256').update(json).digest('hex'),
    packages: [...packages.values()],
  };
}

export async function importAdvisoryFeed(
  deps: { pool: Pick<Pool, 'connect' | 'query'> },
  input: { source: string; files: readonly FeedFile[]; onProgress?: (p: ImportProgress) => void },
): Promise<ImportResult> {
  if (!FEED_NAME.test(input.source)) throw new Error(`bad feed name: ${JSON.stringify(input.source)}`);
  const t0 = performance.now();
  const errors: string[] = [];
  let invalid = 0;
  // the last occurrence of an id wins (an id twice in one statement would be refused by the upsert)
  const rows = new Map<string, AdvisoryRow>();
  let records = 0;
  for (const [n, f] of input.files.entries()) {
    // parsing is synchronous: yield to the event loop now and then, so a worker loading a feed at start still
    // answers /healthz and renews its job locks (docs/advisories.md "Feeds")
    if (n % 50 === 49) await new Promise((r) => setImmediate(r));
    const parsed = parseFeedFile(f.name, f.text);
    if (!parsed.ok) {
      invalid++;
      if (errors.length < MAX_ERRORS) errors.push(parsed.error);
      continue;
    }
    for (const raw of parsed.records) {
      records++;
      const row = JSON.stringify(raw ?? null).includes('\\u0000') ? null : rowOf(raw, errors);
      if (row) rows.set(row.id, row);
      else invalid++;
    }
  }
  const all = [...rows.values()];
  const result: ImportResult = {
    source: input.source,
    files: input.files.length,
    records,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    withdrawn: all.filter((r) => r.withdrawn !== null).length,
    invalid,
    errors,
    reenrichments: 0,
    ms: 0,
  };
  const changed = new Map<string, { ecosystem: string; name: string }>();
  input.onProgress?.({ done: 0, total: all.length });
  for (let i = 0; i < all.length; i += BATCH) {
    const r = await upsertAdvisories(deps.pool, { source: input.source, rows: all.slice(i, i + BATCH) });
    result.inserted += r.inserted.length;
    result.updated += r.updated.length;
    result.unchanged += r.unchanged;
    for (const p of r.changed_packages) changed.set(`${p.ecosystem}:${p.name}`, p);
    input.onProgress?.({ done: Math.min(i + BATCH, all.length), total: all.length });
  }
  result.reenrichments = await markAssetsForAdvisoryReenrichment(deps.pool, {
    packages: [...changed.values()],
    reason: `advisories:${input.source}:${Date.now()}`,
  });
  result.ms = Math.round(performance.now() - t0);
  return result;
}
