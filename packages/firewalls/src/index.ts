// @risk/firewalls: firewall vendors behind one registry (connectors, policy compilers, category data, simulators)
// and the sync use case that pushes a URL-filter policy to a firewall (docs/firewalls.md).
export {
  FIREWALL_VENDORS,
  FIREWALL_TYPES,
  createConnector,
  vendorOf,
  vendorCategoryColumns,
  vendorAiCategoryColumns,
  type FirewallType,
} from './registry';
export type { FirewallVendor, VendorConnectorContext, VendorSimulator } from './vendor';
export * from './connector/types';
export { ConnectorError, type ConnectorFailureReason } from './connector/errors';
export { defaultConnectorContext, REPLY_CAP_BYTES, type ConnectorContext } from './connector/https-client';
export { closeReplyParsers, REPLY_PARSE_BUDGET_MS, setReplyParseBudgetForTests } from './connector/reply-parser';
export * from './policy/policy-model';
export { policyModelOf } from './policy/policy-model-of';
export {
  AI_PARENT_CATEGORY,
  buildCategoryCatalog,
  classifyHostIn,
  loadCategoryCatalog,
  loadOperatorCategoryIds,
  OPERATOR_CATEGORIES_MAX,
  OPERATOR_DOMAINS_MAX,
  shippedCatalog,
  SHIPPED_SOURCE,
  type CategoryCatalog,
  type OperatorCategoryData,
  aiCategories,
  aiCategoryIds,
  aiDomains,
  allCategoryIds,
  classifyHost,
  generalCategories,
  lookupAiDomain,
  type AiCategory,
  type AiDomainEntry,
  type GeneralCategory,
} from './categories';
export { connectionOf } from './sync/connection-of';
export {
  syncPolicyAssignment,
  removePolicyAssignment,
  endRemovalAfterFailedJob,
  type RemoveOptions,
  type SyncOptions,
  type SyncResult,
} from './sync/sync-policy-assignment';
export { describePushedObjects } from './sync/left-on-device';
export {
  bumpAndResyncPolicies,
  categoriesChangedByImport,
  resyncPoliciesUsingCategories,
} from './sync/resync-policies';
export { importOperatorCategories, type OperatorImportResult } from './sync/import-operator-categories';
export {
  FEED_FORMATS,
  FEED_SEVERITIES,
  FEED_SEVERITY_MIN_SCORE,
  FEED_MAX_ENTRIES,
  FEED_MAX_ENTRY_LENGTH,
  feedPath,
  isFeedHost,
  isFeedUrl,
  renderFeed,
  parseFeedText,
  type FeedEntry,
  type FeedFormat,
  type FeedSeverity,
} from './feeds/feed-format';
export { FEED_SECRET_PREFIX, mintFeedSecret, type MintedFeedSecret } from './feeds/feed-token';
export { PolicyTranslationError } from './policy/translation-error';
export {
  parseCategoryCsv,
  CategoryCsvError,
  CATEGORY_CSV_MAX_ROWS,
  type CategoryImport,
} from './categories/category-csv';
export type { SimulatorHandle } from './simulators/tls';
export { attributeBombXml, startHostileFirewall, type HostileFirewallState } from './simulators/hostile-firewall';
export { startPanosSimulator, type PanosSimulatorState } from './vendors/palo-alto/simulator';
export { startFortinetSimulator, type FortinetSimulatorState } from './vendors/fortinet/simulator';
export * from './store';
