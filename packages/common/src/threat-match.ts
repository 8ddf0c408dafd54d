// THE threat ↔ asset matching rule is SQL and lives in @risk/db's threats store (docs/data-access.md, docs/threats.md).
export {
  THREAT_MATCH_RULE_ID,
  matchingAssetsSql,
  threatsMatchingAssetWhere,
  assetCveIds,
  findThreatsMatchingAsset,
} from '@risk/db';
export type { ThreatMatchKeys, AssetMatchKeys, MatchingThreatRow } from '@risk/db';
