export { normalizeOsv, ecosystemKey, packageNameKey, OSV_LIMITS } from './osv';
export type { AdvisoryRecord, AdvisoryAffected, OsvRange, OsvEvent, NormalizeResult } from './osv';
export { advisoryPackageKey, indexAdvisories, matchDependencies, type AdvisoryMatch } from './match';
export { CURATED_ADVISORIES, CURATED_FEED, CURATED_OSV_RECORDS } from './curated';
export { parseFeedFile, type FeedFileResult } from './feed-file';
export { cvss3BaseScore } from './cvss';
