// The threat ↔ asset matching rule lives in @risk/common (threat-match.ts); the enrichment job applies
// it to the CVE ids it has just computed.
export { findThreatsMatchingAsset, type MatchingThreatRow } from '@risk/common';
