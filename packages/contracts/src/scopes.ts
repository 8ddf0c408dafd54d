// The public API's key scopes (docs/guides/auth-and-scopes.md "Scopes"): one list for the public API's scope
// checks, the operator CLI and the admin API's key routes (docs/admin-api.md "API keys").
export const SCOPES = [
  'signals:write',
  'signals:read',
  'assets:read',
  'threats:read',
  'threats:write',
  'webhooks:write',
  // per-org triage: analysis states, suppression rules, severity overrides (docs/triage.md); reads stay assets:read
  'assets:triage',
  // artifact uploads and verdict reads by content hash (docs/artifacts.md "Artifacts in the API")
  'artifacts:write',
  'artifacts:read',
] as const;
export type Scope = (typeof SCOPES)[number];
