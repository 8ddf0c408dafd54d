// The feeds a worker loads on start (docs/advisories.md "Feeds"): the curated feed shipped with the engine, always
// (idempotent: identical records are left alone, so this costs one look-up per record batch), and the PyPA feed
// shipped in packages/enrichment/data/osv-pypi, once — when the database holds no `pypa` record yet.
import { dirname, join } from 'node:path';
import type { Pool } from 'pg';
import { advisoryFeedCounts } from '@risk/db';
import { CURATED_FEED, CURATED_OSV_RECORDS } from '@risk/enrichment';
import { readFeedPath } from './feed-files';
import { importAdvisoryFeed, type ImportResult } from './import-feed';

export const PYPA_FEED = 'pypa';

/** The shipped PyPA archive (resolved through the package, so it works from any working directory). */
export function shippedPypaArchive(): string {
  return join(dirname(require.resolve('@risk/enrichment/package.json')), 'data', 'osv-pypi', 'osv-pypi.zip');
}

export async function loadDefaultFeeds(deps: { pool: Pick<Pool, 'connect' | 'query'> }): Promise<ImportResult[]> {
  const out: ImportResult[] = [];
  out.push(
    await importAdvisoryFeed(deps, {
      source: CURATED_FEED,
      files: [{ name: 'advisories.osv.json', text: JSON.stringify(CURATED_OSV_RECORDS) }],
    }),
  );
  const counts = await advisoryFeedCounts(deps.pool);
  if (!counts.some((c) => c.source === PYPA_FEED))
    out.push(await importAdvisoryFeed(deps, { source: PYPA_FEED, files: await readFeedPath(shippedPypaArchive()) }));
  return out;
}
