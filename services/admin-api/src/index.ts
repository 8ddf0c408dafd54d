// @risk/admin-api: the app factory for tests and main.ts (firewall vendors and the sync use case: @risk/firewalls).
export { createApp, type AppDeps } from './app';
export { buildAdminOpenApiDocument } from './openapi';
export { scoreUrl } from './domain/risk-score/score-url';
