// The curated advisories (src/data/advisories.osv.json): one OSV feed among others, named `curated`
// (docs/advisories.md "Feeds"). The engine falls back to it when the caller passes no advisories (the corpus
// evaluation, unit tests); the worker loads it into the database like any feed and passes candidates from there.
import feed from '../data/advisories.osv.json';
import { indexAdvisories } from './match';
import { normalizeOsv, type AdvisoryRecord } from './osv';

export const CURATED_FEED = 'curated';
/** The curated feed's raw OSV records (what `advisories import` of the feed would read). */
export const CURATED_OSV_RECORDS: readonly unknown[] = feed.records;

export const CURATED_ADVISORIES: readonly AdvisoryRecord[] = feed.records.flatMap((r) => {
  const n = normalizeOsv(r);
  return n.ok ? [n.record] : [];
});
export const CURATED_INDEX = indexAdvisories(CURATED_ADVISORIES);
