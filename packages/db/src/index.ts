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

import type { PrismaClient } from './generated/prisma/client';
/** The client handed to `prisma.$transaction(async (tx) => …)`. */
export type Tx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

export {
  literal,
  assertNoNul,
  PreparedStatements,
  withPrepared,
  isConnectionBroken,
  GENERIC_PLAN_SETTINGS,
} from './sql';
export type { StatementDef, PreparedSession } from './sql';
export { MicroBatch } from './micro-batch';
export type { MicroBatchOptions } from './micro-batch';
export { FAN_OUT_EVENTS_SQL } from './stores/events-store';
export {
  signalsStore,
  releaseClaims,
  readPendingSignals,
  recordProjectionFailure,
  PROJECTION_MAX_ATTEMPTS,
} from './stores/signals-store';
export type {
  AssetWrite,
  ClaimRequest,
  SignalInsert,
  EnrichmentOutboxRow,
  ProjectedSignal,
} from './stores/signals-store';
export { ID_PREFIXES, newId, newRequestId } from './ids';
export {
  THREAT_MATCH_RULE_ID,
  matchingAssetsSql,
  threatsMatchingAssetWhere,
  assetCveIds,
  findThreatsMatchingAsset,
} from './stores/threats-store';
export type { ThreatMatchKeys, AssetMatchKeys, MatchingThreatRow } from './stores/threats-store';
export {
  ASSET_HISTORY_CAP,
  HISTORY_SQL,
  HISTORY_STATEMENT_TYPES,
  findingKeys,
  findingSnapshot,
  type FindingSnapshot,
} from './stores/history-store';
export {
  expireAcceptedRisks,
  orgTriageLateral,
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
export {
  JOB_READ_STATEMENTS,
  readEnrichmentJobs,
  readCandidateThreats,
  type CandidateThreats,
} from './stores/enrichment-reads';
export { enrichmentWriteKey, writeEnrichment, writeEnrichments } from './stores/enrichment-store';
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
  type ChangeSummary,
  type AiBomSummary,
  type FindingsSummary,
} from './history/change-summary';
export type { CandidateThreatRow, EnrichmentJobKey, JobRead, Observation } from './stores/enrichment-reads';
export type { EnrichmentWrite, EnrichmentWritten } from './stores/enrichment-store';
export {
  upsertAdvisories,
  markAssetsForAdvisoryReenrichment,
  readCandidateAdvisories,
  CANDIDATE_ADVISORIES_SQL,
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
export { reenrichMatchedSql } from './stores/reenrich-sql';
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
} from './stores/artifacts';
export type {
  ArtifactClaim,
  ArtifactRow,
  ArtifactScanWrite,
  ArtifactsDb,
  ArtifactStatus,
  ArtifactVerdictName,
  ArtifactVerdictRow,
} from './stores/artifacts';
export {
  markAssetsForArtifactReenrichment,
  readAssetArtifacts,
  recordAssetArtifacts,
  type AssetArtifactRef,
  type AssetArtifactView,
} from './stores/asset-artifacts-store';
