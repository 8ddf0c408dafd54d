// @risk/db owns Prisma end to end: services import the client, its types and the migrate runner
// from here and never from @prisma/client or the generated folder.
export { PrismaClient, Prisma } from './generated/prisma/client';
export type * from './generated/prisma/client';
export { createPrisma, DEFAULT_LOCK_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS } from './client';
export type { CreatePrismaOptions, DbHandle, Db } from './client';
export {
  migrate,
  readMigrations,
  ensureDatabase,
  dropDatabase,
  resetDatabase,
  databaseName,
  withDatabase,
  quoteIdent,
  MigrationError,
  MIGRATIONS_DIR,
} from './migrate';
export type { MigrateResult, MigrationFile } from './migrate';
export { ensureMigratedTemplate } from './template';

export type { Tx } from './tx';

// The raw-SQL toolkit (./sql: the literal formatter, prepared statements and EXECUTE) is private to the stores
// (docs/data-access.md "One door").
export { MicroBatch } from './micro-batch';
export type { MicroBatchOptions } from './micro-batch';
export {
  signalsStore,
  releaseClaims,
  readPendingSignals,
  withIngestSession,
  projectionsPending,
  countPendingProjections,
  recordProjectionFailure,
  PROJECTION_MAX_ATTEMPTS,
  PROJECTION_BUCKETS,
} from './stores/signals-store';
export type {
  AssetWrite,
  ClaimRequest,
  SignalInsert,
  EnrichmentOutboxRow,
  ProjectedSignal,
  ClaimedSignal,
} from './stores/signals-store';
export { ID_PREFIXES, newId, newRequestId } from './ids';
export { THREAT_MATCH_RULE_ID, assetCveIds, findThreatsMatchingAsset } from './stores/threats-store';
export type { ThreatMatchKeys, AssetMatchKeys, MatchingThreatRow } from './stores/threats-store';
export { ASSET_HISTORY_CAP, findingKeys, findingSnapshot, type FindingSnapshot } from './stores/history-store';
export {
  expireAcceptedRisks,
  parseOrgAssetTriage,
  readOrgTriage,
  type ExpiredAcceptance,
  type OrgAssetTriage,
  type OrgTriageRows,
  type OrgViewFinding,
} from './stores/triage-store';
export {
  OVERVIEW_BUCKETS,
  overviewCounts,
  overviewRiskChanges,
  overviewThreats,
  overviewTop,
  type OverviewCounts,
  type OverviewRiskDay,
  type OverviewThreatRow,
  type OverviewTop,
} from './stores/overview-store';
export { readEnrichmentJobs, readCandidateThreats, type CandidateThreats } from './stores/enrichment-reads';
export { enrichmentWriteKey, findingRow, writeEnrichment, writeEnrichments } from './stores/enrichment-store';
export { TOOL_BASELINE_CAP } from './stores/tool-baselines-store';
export {
  diffComponents,
  diffFindingSnapshots,
  diffLineage,
  diffPrimaryLicense,
  type ComponentRef,
  type ComponentsDiff,
  type LineageDiff,
} from './history/aibom-diff';
export {
  SUMMARY_FINDING_CAP,
  SUMMARY_NAME_CAP,
  summarizeAiBom,
  summarizeFindings,
  type ChangeSummary,
  type AiBomSummary,
  type FindingsSummary,
  type KeyedFinding,
} from './history/change-summary';
export type { CandidateThreatRow, EnrichmentJobKey, JobRead, Observation } from './stores/enrichment-reads';
export type { EnrichmentWrite, EnrichmentWritten } from './stores/enrichment-store';
export type {
  EnrichmentEventRow,
  EnrichmentEventsInput,
  PreviousEnrichment,
  StoredEnrichmentResult,
  StoredFinding,
  StoredTool,
  StoredToolBaseline,
} from './stores/enrichment-rows';
export {
  upsertAdvisories,
  markAssetsForAdvisoryReenrichment,
  readCandidateAdvisories,
  type AdvisoryLookupKey,
  readAdvisoriesByIdOrAlias,
  advisoryFeedCounts,
} from './stores/advisories-store';
export type { AdvisoryRow, UpsertAdvisoriesResult, StoredAdvisory } from './stores/advisories-store';
export { readFeedCandidates, type FeedCandidateRow } from './stores/feeds-store';
export {
  writeOperatorCategories,
  type ChangedOperatorDomain,
  type OperatorCategoriesWrite,
} from './stores/operator-categories-store';
export { endConsoleSessions, CONSOLE_IDLE_MS, CONSOLE_ABSOLUTE_MS } from './stores/console-sessions-store';
export type { ConsoleSessionSelection } from './stores/console-sessions-store';
export {
  ARTIFACT_CHUNK_BYTES,
  claimArtifactScan,
  completeArtifactScan,
  expireArtifactScans,
  failArtifactScan,
  findArtifacts,
  findArtifactsToRescan,
  findArtifactVerdicts,
  keepArtifactLease,
  markArtifactBytesKept,
  readArtifactChunks,
  recordArtifactUpload,
  renewArtifactLease,
  writeArtifactChunk,
  type ArtifactClaim,
  type ArtifactRow,
  type ArtifactScanWrite,
  type ArtifactsDb,
  type ArtifactStatus,
  type ArtifactVerdictName,
  type ArtifactVerdictRow,
} from './stores/artifacts';
export {
  markAssetsForArtifactReenrichment,
  readAssetArtifacts,
  recordAssetArtifacts,
  type AssetArtifactRef,
  type AssetArtifactView,
} from './stores/asset-artifacts-store';
export {
  readOrgArtifactReports,
  recordOrgArtifactReports,
  type OrgArtifactReport,
} from './stores/org-artifact-reports-store';
// The stores' typed functions: every SQL statement of the services lives behind them (docs/data-access.md).
export {
  markOutboxProcessedAsync,
  relayOutboxRows,
  purgeProcessedOutbox,
  outboxLagSeconds,
  type OutboxRow,
  type OutboxOutcome,
} from './stores/outbox-store';
export {
  claimDeliveryAttempt,
  releaseDeliveryAttempt,
  markEndpointFailing,
  lockWebhookEndpointCreation,
  type ClaimedDelivery,
} from './stores/webhooks-store';
export {
  lockAssignment,
  tryLockAssignment,
  markAssignmentsPending,
  setRulePositions,
  countAssignmentsBySyncStatus,
  lockPolicy,
} from './stores/policy-assignments-store';
export { staleExpiredEnrichments, staleShrunkObservations } from './stores/assets-maintenance-store';
export {
  prismaQueryable,
  insertIdempotencyClaim,
  readIdempotencyKey,
  deleteIdempotencyKey,
  releaseIdempotencyClaim,
  completeIdempotencyClaim,
  purgeIdempotencyKeys,
  type Queryable,
  type IdempotencyKeyScope,
  type IdempotencyKeyRow,
} from './stores/idempotency-store';
export {
  fanOutEvents,
  fanOutEventsPg,
  readEventFor,
  listEventsFor,
  type FannedOutDelivery,
  type EventReader,
  type EventRow,
} from './stores/events-store';
export { readSignalFor } from './stores/signal-reads';
export {
  ensureMonthPartitions,
  dropExpiredMonths,
  defaultPartitionRows,
  type PartitionedTable,
  type RetentionResult,
} from './stores/partitions-store';
export { pingDatabase, replicaLagSeconds } from './stores/health-store';
export {
  analyzeSeeded,
  copySeedRows,
  ensureSeedMonths,
  seededSizes,
  seedExistingRows,
  type SeedRow,
  type SeedTable,
} from './stores/seed-store';
export { listAiBomVersionRows, type AiBomVersionRow } from './stores/aiboms-store';
export {
  lockThreatImport,
  lockThreatsForImport,
  lockThreat,
  insertThreats,
  updateThreats,
  markThreatMatchesForReenrichment,
  listThreatsMatchingAsset,
  type NewThreatRecord,
} from './stores/threat-writes-store';
export {
  ASSET_SELECT,
  readAssetsByKeys,
  readOwnObservations,
  readAssetsForOrg,
  findAssetsByExactName,
  findAssetNameCandidates,
  type AssetRow,
  type AssetReadKey,
  type AssetNameKey,
} from './stores/assets-store';
export {
  readApiKeyByHash,
  lockOrgApiKeys,
  readTenantTokenCheck,
  readFeedTokenBySecretHash,
  lockTenant,
  type ApiKeyCheckRow,
  type TenantTokenCheckRow,
  type FeedTokenCheckRow,
} from './stores/credentials-store';
export { readConsoleSessionBySecretHash, type ConsoleSessionCheckRow } from './stores/console-sessions-store';
export {
  withInvariantLock,
  type InvariantReads,
  type UnqueuedAsset,
  type AssignmentCandidate,
} from './stores/invariants-store';
