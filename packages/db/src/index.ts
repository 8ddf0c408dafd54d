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

export { literal, assertNoNul, PreparedStatements, withPrepared, isConnectionBroken } from './sql';
export type { StatementDef, PreparedSession } from './sql';
export { MicroBatch } from './micro-batch';
export type { MicroBatchOptions } from './micro-batch';
export { FAN_OUT_EVENTS_SQL } from './stores/events-store';
export { signalsStore, releaseClaims } from './stores/signals-store';
export type { AssetWrite, ClaimRequest, SignalInsert, EnrichmentOutboxRow } from './stores/signals-store';
export { ID_PREFIXES, newId, newRequestId } from './ids';
export {
  THREAT_MATCH_RULE_ID,
  matchingAssetsSql,
  threatsMatchingAssetWhere,
  assetCveIds,
  findThreatsMatchingAsset,
} from './stores/threats-store';
export type { ThreatMatchKeys, AssetMatchKeys, MatchingThreatRow } from './stores/threats-store';
export { ASSET_HISTORY_CAP, HISTORY_SQL, findingSnapshot, type FindingSnapshot } from './stores/history-store';
export { readEnrichmentJobs, readCandidateThreats, writeEnrichment } from './stores/enrichment-store';
export type {
  CandidateThreatRow,
  EnrichmentJobKey,
  EnrichmentWrite,
  EnrichmentWritten,
  JobRead,
  Observation,
} from './stores/enrichment-store';
