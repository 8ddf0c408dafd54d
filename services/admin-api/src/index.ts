// @risk/admin-api: the app factory for tests and main.ts and its route table (firewall vendors and the sync
// use case: @risk/firewalls).
export { createApp, type AppDeps } from './app';
export { buildAdminOpenApiDocument } from './openapi';
export { adminRouteTable } from './routes';
export type { AdminRouteRow } from './routes/table';
export { scoreUrl } from './domain/risk-score/score-url';
