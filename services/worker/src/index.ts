export { startWorker, type RunningWorker } from './worker';
export { relayOutbox, startOutboxRelay, type RelayResult } from './outbox-relay';
export { runMaintenance } from './maintenance';
export { enrichAsset, markEnrichmentFailed, type EnrichmentOutcome } from './jobs/enrichment';
export type { WorkerDeps } from './deps';
export { checkInvariants, type InvariantReport } from './invariants';
export { importAdvisoryFeed, FEED_NAME, type ImportResult, type ImportProgress } from './advisories/import-feed';
export { readFeedPath, fetchFeedUrl, zipFeedFiles, type FeedFile } from './advisories/feed-files';
export { loadDefaultFeeds, shippedPypaArchive, PYPA_FEED } from './advisories/default-feeds';
