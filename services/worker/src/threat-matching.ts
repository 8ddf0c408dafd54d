// The threat ↔ asset matching rule lives in @risk/db (stores/threats-store.ts); the enrichment job applies
// it to the CVE ids it has just computed.
export { findThreatsMatchingAsset, type MatchingThreatRow } from '@risk/db';
