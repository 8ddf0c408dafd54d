export { startWorker, type RunningWorker } from './worker';
export { relayOutbox, startOutboxRelay, type RelayResult } from './outbox-relay';
export { runMaintenance } from './maintenance';
export { enrichAsset, markEnrichmentFailed, type EnrichmentOutcome } from './jobs/enrichment';
export type { WorkerDeps } from './deps';
export { checkInvariants, type InvariantReport } from './invariants';
