// @risk/admin-api: the app factory for tests and main.ts, its route table, and the firewall sync use cases the worker runs.
export { createApp, type AppDeps } from './app';
export { buildAdminOpenApiDocument } from './openapi';
export { adminRouteTable, type AdminRouteRow } from './routes/table';
export {
  syncPolicyAssignment,
  removePolicyAssignment,
  type SyncOptions,
  type SyncResult,
} from './domain/policies/sync-policy-assignment';
export { createConnector, ConnectorError, type FirewallConnector, type FirewallConnection } from './connectors';
export { startPanosSimulator, startFortinetSimulator } from './simulators';
export { scoreUrl } from './domain/risk-score/score-url';
