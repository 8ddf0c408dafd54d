// Generated from the OpenAPI documents by `pnpm --filter @risk/sdk generate` (scripts/openapi-types.ts): do not edit.
/** The POST operations that take an Idempotency-Key header, per document, as path templates. */
export const IDEMPOTENT_POSTS = {
  'public-api': [
    '/v1/artifacts',
    '/v1/assets/{fingerprint}/findings/{finding_id}/triage',
    '/v1/signals',
    '/v1/signals/bulk',
    '/v1/suppressions',
    '/v1/threats',
    '/v1/threats/import',
    '/v1/threats/{threat_id}',
    '/v1/webhooks',
    '/v1/webhooks/{webhook_id}',
    '/v1/webhooks/{webhook_id}/rotate_secret',
  ],
  'admin-api': ['/keys/v1'],
} as const;
